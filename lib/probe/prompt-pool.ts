/**
 * The combinatorial pool a probe's prompt text is drawn from (issue 20 item 1, decision 174).
 *
 * The prompt key carries 128 secret random bits (decision 173); this module turns ALL of them into
 * text: a generator seeded with the key's full SHA-256 (not a 32-bit seed, which would allow only
 * 2^32 distinct materials) picks an opening line, the instruction's wording clause by clause, and
 * every sentence, function, problem or record of the material from pools of words and templates.
 * So nothing of a prompt is predictable without the key, not even its first words: no prefix,
 * prompt or answer cache can have seen it, and a provider cannot recognise a probe by a fixed
 * opening ("Request <hex>" was one) or a fixed instruction.
 *
 * Size of the pool (lower bounds, from the list sizes below): an opening line alone has
 * 24·48·48·40·28·12·(32^6) ≈ 2^61 forms; one prose sentence ≥ 6·48·64·40·48·64·32·24 ≈ 2^40; a
 * ~1k-token prose prompt (~45 sentences) therefore ≥ 2^1800 forms: two probes of one slot share
 * only what two independent draws share by chance (common words, a short phrase), never a part
 * that could be known in advance.
 */
import { createHash } from 'node:crypto';

/**
 * A uniform [0, 1) generator from a 32-byte seed: SHA-256(seed ‖ counter) blocks, eight 32-bit
 * draws a block (a hash-counter DRBG in the manner of NIST SP 800-90A Hash_DRBG, without
 * reseeding: deterministic for one seed, which keeps replays and tests exact). Not slower than
 * needed: one hash per 8 draws (a 100k-token prompt takes ~50k draws).
 */
export function hashStream(seed: Buffer): () => number {
  let counter = 0;
  let block = Buffer.alloc(0);
  let at = 32;
  return () => {
    if (at >= 32) {
      const c = Buffer.alloc(8);
      c.writeBigUInt64BE(BigInt(counter++));
      block = createHash('sha256').update(seed).update(c).digest();
      at = 0;
    }
    const v = block.readUInt32BE(at);
    at += 4;
    return v / 4294967296;
  };
}

/** One element of `list`, uniformly. */
export function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

/** Word lists of the material (each entry one or two plain English words). */
export const WORDS = {
  adjective: [
    'quiet',
    'amber',
    'restless',
    'distant',
    'narrow',
    'silver',
    'crowded',
    'patient',
    'hollow',
    'bright',
    'weathered',
    'curious',
    'gentle',
    'rusty',
    'frozen',
    'golden',
    'lonely',
    'noisy',
    'ancient',
    'tiny',
    'broad',
    'faded',
    'careful',
    'stubborn',
    'sleepy',
    'eager',
    'humble',
    'proud',
    'muddy',
    'polished',
    'crooked',
    'velvet',
    'brisk',
    'dusty',
    'grateful',
    'clumsy',
    'secret',
    'scarlet',
    'tidy',
    'wild',
    'modest',
    'fragile',
    'steady',
    'cheerful',
    'solemn',
    'windy',
    'copper',
    'pale',
  ],
  noun: [
    'lighthouse',
    'courier',
    'orchard',
    'engineer',
    'market',
    'river',
    'library',
    'fox',
    'violinist',
    'harbor',
    'bridge',
    'archive',
    'baker',
    'ferry',
    'garden',
    'tailor',
    'glacier',
    'mill',
    'owl',
    'painter',
    'station',
    'tower',
    'canal',
    'shepherd',
    'printer',
    'monastery',
    'caravan',
    'kettle',
    'sailor',
    'quarry',
    'theatre',
    'falcon',
    'beekeeper',
    'clockmaker',
    'vineyard',
    'pharmacist',
    'tram',
    'greenhouse',
    'cartographer',
    'heron',
    'postman',
    'fountain',
    'carpenter',
    'lantern',
    'meadow',
    'glassblower',
    'ferryman',
    'cellist',
    'boathouse',
    'weaver',
    'chapel',
    'badger',
    'surveyor',
    'bakery',
    'potter',
    'windmill',
    'telegraph',
    'inn',
    'blacksmith',
    'astronomer',
    'puppeteer',
    'warehouse',
    'beacon',
    'nurse',
  ],
  verb: [
    'watched',
    'followed',
    'repaired',
    'remembered',
    'crossed',
    'painted',
    'measured',
    'guarded',
    'visited',
    'described',
    'carried',
    'greeted',
    'photographed',
    'questioned',
    'sketched',
    'admired',
    'avoided',
    'rebuilt',
    'searched',
    'welcomed',
    'noticed',
    'polished',
    'mapped',
    'studied',
    'warned',
    'helped',
    'counted',
    'cleaned',
    'delivered',
    'borrowed',
    'praised',
    'inspected',
    'escorted',
    'ignored',
    'trusted',
    'recorded',
    'tracked',
    'chased',
    'fed',
    'thanked',
  ],
  place: [
    'the old quarter',
    'the northern pier',
    'a mountain pass',
    'the night train',
    'the flooded meadow',
    'the observatory',
    'the salt flats',
    'the covered market',
    'the eastern gate',
    'a quiet cove',
    'the abandoned mine',
    'the river delta',
    'the botanical garden',
    'the border town',
    'the ridge road',
    'the ferry terminal',
    'the fish market',
    'the city wall',
    'a hillside farm',
    'the rail yard',
    'the island chapel',
    'the frozen lake',
    'the lower docks',
    'the olive grove',
    'the paper mill',
    'the high moor',
    'the tram depot',
    'the lagoon',
    'the copper works',
    'the valley school',
    'the clock tower',
    'the sand dunes',
  ],
  time: [
    'at dawn',
    'before the storm',
    'every Tuesday',
    'long after midnight',
    'in early spring',
    'during the festival',
    'at noon',
    'after the harvest',
    'on the first frost',
    'before the elections',
    'in late autumn',
    'at low tide',
    'during the blackout',
    'each winter',
    'after the wedding',
    'at dusk',
    'before the ferry left',
    'on market day',
    'during the long rains',
    'in the dry season',
    'after the fire',
    'on a foggy morning',
    'at the year’s end',
    'once a month',
  ],
  item: [
    'bolts',
    'lanterns',
    'cables',
    'notebooks',
    'valves',
    'sensors',
    'batteries',
    'pumps',
    'filters',
    'gears',
    'hinges',
    'brushes',
    'kettles',
    'ropes',
    'nails',
    'blankets',
    'bottles',
    'crates',
    'tiles',
    'springs',
    'clamps',
    'candles',
    'pencils',
    'buckets',
    'helmets',
    'gloves',
    'lenses',
    'magnets',
    'fuses',
    'chains',
    'jars',
    'baskets',
  ],
  city: [
    'Lyon',
    'Osaka',
    'Denver',
    'Porto',
    'Tallinn',
    'Recife',
    'Perth',
    'Accra',
    'Bergen',
    'Cusco',
    'Hobart',
    'Izmir',
    'Kraków',
    'Lagos',
    'Malmö',
    'Nagpur',
    'Oaxaca',
    'Quito',
    'Riga',
    'Sapporo',
    'Tromsø',
    'Utrecht',
    'Valencia',
    'Windhoek',
    'Yerevan',
    'Zagreb',
    'Adelaide',
    'Bilbao',
    'Cork',
    'Dakar',
    'Esbjerg',
    'Fukuoka',
    'Graz',
    'Halifax',
    'Irkutsk',
    'Jaipur',
    'Kigali',
    'Leipzig',
    'Mombasa',
    'Nantes',
  ],
  firstName: [
    'Ada',
    'Bruno',
    'Chiara',
    'Dmitri',
    'Elif',
    'Farid',
    'Greta',
    'Hugo',
    'Ines',
    'Jonas',
    'Keiko',
    'Lars',
    'Mira',
    'Nico',
    'Olga',
    'Pablo',
    'Quinn',
    'Rosa',
    'Sven',
    'Tara',
    'Umar',
    'Vera',
    'Wen',
    'Yusuf',
  ],
  surname: [
    'Abara',
    'Bianchi',
    'Castro',
    'Dubois',
    'Eriksen',
    'Fischer',
    'García',
    'Haddad',
    'Ivanova',
    'Jensen',
    'Kowalski',
    'Lindqvist',
    'Moreau',
    'Nakamura',
    'Okafor',
    'Petrov',
    'Quispe',
    'Rossi',
    'Santos',
    'Tanaka',
    'Ueda',
    'Vargas',
    'Weber',
    'Xu',
    'Yilmaz',
    'Zhou',
    'Almeida',
    'Brandt',
    'Costa',
    'Dahl',
    'Esposito',
    'Ferreira',
    'Gruber',
    'Horvat',
    'Ito',
    'Jovanović',
    'Khan',
    'Larsen',
    'Mendes',
    'Novak',
    'Ortiz',
    'Popescu',
    'Reyes',
    'Silva',
    'Takahashi',
    'Varga',
    'Wójcik',
    'Zimmermann',
  ],
} as const;

const OPENERS = [
  'Hi,',
  'Hello,',
  'Hey there,',
  'Good morning,',
  'Quick one:',
  'Hi again,',
  'Morning,',
  'Hello again,',
  'A small favour:',
  'Okay,',
  'Thanks in advance:',
  'So,',
  'Here goes:',
  'One more:',
  'Please help:',
  'Alright,',
  'Hey,',
  'Good evening,',
  'Greetings,',
  'Right,',
  'Next task:',
  'New request:',
  'For the record,',
  'Dear assistant,',
];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const CODE_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'; // 32 symbols, 5 bits each

/**
 * The opening line: who writes, from where and when, with a file reference of six random symbols.
 * It comes FIRST (prefix caches match from the start) and differs between any two keys from the
 * first word on with probability ≥ 1 − 1/24, and as a whole with probability ≥ 1 − 2^-61.
 */
export function openingLine(random: () => number): string {
  const code = Array.from({ length: 6 }, () => CODE_CHARS[Math.floor(random() * CODE_CHARS.length)]).join('');
  const day = 1 + Math.floor(random() * 28);
  return `${pick(random, OPENERS)} ${pick(random, WORDS.firstName)} ${pick(random, WORDS.surname)} from ${pick(random, WORDS.city)} here (${day} ${pick(random, MONTHS)}, file ${code}).`;
}

/**
 * A sentence built from `clauses`, each a list of interchangeable wordings: one wording per clause,
 * joined by spaces. With k wordings per clause and c clauses, k^c instructions say the same thing.
 *
 * A wording may hold slots that are filled from the same generator, so no clause is a fixed run of
 * words two probes share whenever they pick the same wording: `{adjective}`, `{noun}`, `{city}`,
 * `{firstName}`, `{item}` (one word of that WORDS list) and `{lo-hi}` (an integer, lo ≤ n ≤ hi).
 * Throws Error naming an unknown slot (a typo in a template must not reach a provider verbatim).
 */
export function phrase(random: () => number, clauses: readonly (readonly string[])[]): string {
  return clauses.map((alternatives) => fillSlots(random, pick(random, alternatives))).join(' ');
}

const SLOT_LISTS = { adjective: WORDS.adjective, noun: WORDS.noun, city: WORDS.city, firstName: WORDS.firstName, item: WORDS.item } as const;

function fillSlots(random: () => number, wording: string): string {
  return wording.replace(/\{([^}]+)\}/g, (_, slot: string) => {
    const range = /^(\d+)-(\d+)$/.exec(slot);
    if (range) {
      const lo = Number(range[1]);
      const hi = Number(range[2]);
      return String(lo + Math.floor(random() * (hi - lo + 1)));
    }
    const list = (SLOT_LISTS as Record<string, readonly string[]>)[slot];
    if (!list) throw new Error(`unknown slot {${slot}} in an instruction wording`);
    return pick(random, list);
  });
}
