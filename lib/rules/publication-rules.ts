/**
 * The rules a listed endpoint must follow (decision 231), published at /rules and
 * /api/v1/rules. One versioned text: the page, the JSON, the submission form's confirmation and
 * the methodology link all read it from here. Modelled on MLPerf Endpoints (MLCommons rules v1.0,
 * 2026: benchmarking allowed by the terms, disclosure of model version, price and speculative
 * decoding; no benchmark detection, no padding to stop the clock, no deduplication of identical
 * queries) and Artificial Analysis's provider rules (the endpoint measured is the one customers get).
 */

/** One rule: a stable id (anchor on /rules), its text and, where it has one, what enforces it. */
export interface PublicationRule {
  id: string;
  text: string;
  /** how Tokenpace checks or enforces it (a rule, a reason, a process) */
  enforcedBy?: string;
}

/** A section of the rules. */
export interface RuleSection {
  id: 'requirements' | 'forbidden' | 'sweeps' | 'consequences' | 'disputes';
  title: string;
  rules: PublicationRule[];
}

/** Version and date of the rules in force; bump both on any change of meaning. */
export const RULES_VERSION = '1.0';
export const RULES_DATE = '2026-12-01';

export const RULE_SECTIONS: RuleSection[] = [
  {
    id: 'requirements',
    title: 'What a listed endpoint must be',
    rules: [
      {
        id: 'same-as-customers',
        text: 'The endpoint is the one paying customers get: same URL, model, precision, tier and limits as sold. No dedicated fast lane for measurement traffic.',
        enforcedBy: 'probes look like ordinary clients (no identifying header, prompts drawn with a server-side secret); disputes and admin review',
      },
      {
        id: 'terms-allow',
        text: 'The provider’s terms of service allow automated measurement of its public API, or the owner grants it in writing when submitting.',
      },
      {
        id: 'declared-metadata',
        text: 'Declared metadata is true and kept current: model version, hardware, engine, precision, speculative decoding (method and draft length), deployment kind, service tier, region. A change is declared when it happens; it starts a new revision of the endpoint.',
        enforcedBy: 'dated revisions of the declared metadata; change points on the history chart',
      },
      { id: 'declared-price', text: 'The published price per million input and output tokens is declared with its source URL and date.' },
      {
        id: 'proof-of-name',
        text: 'An endpoint is listed under a provider’s name only with proof: an account whose verified email domain is the provider’s, or an admin’s link.',
        enforcedBy: 'review queue shows verified and unverified claims',
      },
      { id: 'owner-contact', text: 'The owner gives a contact that answers questions about the endpoint.' },
    ],
  },
  {
    id: 'forbidden',
    title: 'What is forbidden',
    rules: [
      { id: 'benchmark-detection', text: 'Detecting measurement requests and treating them differently (routing, priority, caching, model choice).' },
      {
        id: 'cached-answers',
        text: 'Serving stored or precomputed answers, or deduplicating identical or similar queries, for measurement traffic.',
        enforcedBy: 'every prompt carries ≥ 64 random bits; the same answer to different prompts is not rankable',
      },
      {
        id: 'junk-output',
        text: 'Output that is not a real answer to the prompt (forced speculative acceptance, repeated or filler text).',
        enforcedBy: 'fidelity checks (fidelity_failed) and degenerate-output rules',
      },
      {
        id: 'clock-padding',
        text: 'Padding to stop the clock: an early token followed by a hold, whitespace or filler to lower TTFT.',
        enforcedBy: 'plausible-delivery rules (docs/methodology)',
      },
      {
        id: 'bursts',
        text: 'Holding output back and releasing it in bursts far above the stream’s own generation rate, or sending a finished answer as a stream.',
        enforcedBy: 'plausible-delivery rules; buffered_stream',
      },
      {
        id: 'inflated-counts',
        text: 'Reporting more output tokens than were sent.',
        enforcedBy: 'ranking on the o200k basis; the token-honesty ratio per endpoint',
      },
    ],
  },
  {
    id: 'sweeps',
    title: 'Sweeps and load beyond the schedule',
    rules: [
      {
        id: 'sweep-consent',
        text: 'Concurrency sweeps run only on approved endpoints, when the owner asks and an admin consents to their limits (concurrency, duration, levels). They back off on errors and stop on error rates.',
      },
    ],
  },
  {
    id: 'consequences',
    title: 'What happens when a rule is broken',
    rules: [
      {
        id: 'annotate',
        text: 'Affected measurements are annotated with the finding and, where they could mislead, excluded from rankings with the reason shown. Measurements are never deleted or rewritten.',
      },
      { id: 'suspend', text: 'An endpoint that breaks a forbidden rule on purpose is suspended: no longer probed or ranked, its history kept and marked.' },
      { id: 'public', text: 'Annotations, exclusions and suspensions are public on the endpoint page, in the feed, in the API and in the dumps.' },
    ],
  },
  {
    id: 'disputes',
    title: 'Disputes',
    rules: [
      {
        id: 'open-dispute',
        text: 'An endpoint’s owner (or an admin) may dispute a measurement, a window or a change point, with a reason and evidence. An admin accepts, rejects or annotates it; every step is in the audit log and public.',
      },
    ],
  },
];

/** The rules as served by GET /api/v1/rules. */
export function publicationRules(): { version: string; date: string; sections: RuleSection[] } {
  return { version: RULES_VERSION, date: RULES_DATE, sections: RULE_SECTIONS };
}
