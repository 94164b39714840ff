/**
 * The token-honesty ratio a model's own tokenizer should show (issue 20 item 4, decision 175):
 * provider-reported output tokens ÷ the o200k_base count of the text received, for the English
 * prose, code and JSON our probes ask for. A provider that reports more tokens than its tokenizer
 * makes of the text it sent shows a ratio above its family's band.
 *
 * The bands are ASSUMPTIONS, not measurements (none of these tokenizers is run here): set from each
 * tokenizer's lineage and vocabulary size relative to o200k (≈ 200k entries, GPT-4o), wide enough
 * for the text our probes get back, and to be narrowed by measuring each tokenizer on stored
 * answers. Lineage sources: the models' published tokenizer descriptions (OpenAI tiktoken
 * o200k_base / o200k_harmony; Meta Llama 3 model card: tiktoken-based, 128k vocabulary; Llama 4:
 * 200k vocabulary; Qwen3 151k BPE; DeepSeek-V3 report: 128k byte-level BPE; Mistral Tekken: tiktoken-
 * based 131k; Gemma/Gemini: SentencePiece 256k; Kimi K2 160k tiktoken-based; GLM-4 151k; MiniMax
 * 200k). Anthropic publishes no tokenizer: its band is the widest of the named ones.
 */

/** Expected reported ÷ o200k ratio of one tokenizer family: inclusive band and what it rests on. */
export interface TokenizerBand {
  tokenizer: string;
  low: number;
  high: number;
  assumption: string;
}

const O200K: TokenizerBand = {
  tokenizer: 'o200k_base',
  low: 0.97,
  high: 1.03,
  assumption: 'the model’s own tokenizer is o200k (special tokens and whitespace handling only)',
};
const NEAR_CL100K = (tokenizer: string): TokenizerBand => ({
  tokenizer,
  low: 0.95,
  high: 1.15,
  assumption: 'a ~100-160k byte-level BPE: English within a few per cent of cl100k, which makes 0-10 % more tokens than o200k',
});

/** Model family (catalog `family`) → band. */
export const TOKENIZER_BANDS: Readonly<Record<string, TokenizerBand>> = {
  Calibration: {
    tokenizer: 'o200k_base (reference server)',
    low: 0.99,
    high: 1.01,
    assumption: 'the reference server sends one o200k token per reported token',
  },
  'GPT-4': O200K,
  'GPT-5': O200K,
  'gpt-oss': { ...O200K, tokenizer: 'o200k_harmony' },
  'Llama 3': NEAR_CL100K('Llama 3 (tiktoken-based, 128k)'),
  'Llama 4': { tokenizer: 'Llama 4 (200k)', low: 0.95, high: 1.1, assumption: 'a 200k BPE like o200k' },
  Qwen3: NEAR_CL100K('Qwen (151k BPE)'),
  'DeepSeek V3': NEAR_CL100K('DeepSeek-V3 (128k BPE)'),
  'DeepSeek R1': NEAR_CL100K('DeepSeek-V3 (128k BPE)'),
  Codestral: NEAR_CL100K('Mistral Tekken (131k)'),
  Magistral: NEAR_CL100K('Mistral Tekken (131k)'),
  'Kimi K2': NEAR_CL100K('Kimi (160k, tiktoken-based)'),
  'GLM-4': NEAR_CL100K('GLM-4 (151k)'),
  'MiniMax M': { tokenizer: 'MiniMax (200k)', low: 0.95, high: 1.1, assumption: 'a 200k BPE like o200k' },
  'Gemini 2.5': {
    tokenizer: 'Gemini (SentencePiece, 256k)',
    low: 0.9,
    high: 1.15,
    assumption: 'a 256k SentencePiece vocabulary: English close to o200k, code a little coarser or finer',
  },
  'Grok 4': { tokenizer: 'Grok (unpublished)', low: 0.9, high: 1.2, assumption: 'an unpublished tokenizer of a large vocabulary' },
  'Claude 4': {
    tokenizer: 'Anthropic (unpublished)',
    low: 0.95,
    high: 1.35,
    assumption: 'unpublished; Claude counts for English text are commonly 10-30 % above OpenAI’s',
  },
};

/** The band of a family not in the table: any modern large-vocabulary tokenizer. */
export const UNKNOWN_TOKENIZER_BAND: TokenizerBand = {
  tokenizer: 'unknown',
  low: 0.85,
  high: 1.35,
  assumption: 'no tokenizer on record: the range of large-vocabulary tokenizers on English text',
};

/** The band for a catalog model family (null or unknown → {@link UNKNOWN_TOKENIZER_BAND}). */
export function tokenizerBandOf(family: string | null): TokenizerBand {
  return (family !== null ? TOKENIZER_BANDS[family] : undefined) ?? UNKNOWN_TOKENIZER_BAND;
}

/**
 * Verdict on a window's ratio interval: `over_reported` when the whole 95 % interval lies above the
 * band, `under_reported` when wholly below, `within` otherwise (an interval that overlaps the band
 * is no evidence of dishonesty).
 */
export function judgeTokenHonesty(
  interval: { low: number; high: number },
  band: Pick<TokenizerBand, 'low' | 'high'>,
): 'within' | 'over_reported' | 'under_reported' {
  if (interval.low > band.high) return 'over_reported';
  if (interval.high < band.low) return 'under_reported';
  return 'within';
}
