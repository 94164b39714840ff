/**
 * The model comparison's filter and sort state as the URL carries it (shared by the home page, which
 * reads it from the query, and the client view, which writes it back).
 */
/** Sortable columns of the comparison table and which way is better. */
export const SORTS = {
  speed: { label: 'TPS/user', better: 'desc' },
  ttft: { label: 'TTFT', better: 'asc' },
  price: { label: 'price', better: 'asc' },
  context: { label: 'context window', better: 'desc' },
  name: { label: 'model name', better: 'asc' },
} as const;
export type Sort = keyof typeof SORTS;
export type Dir = 'asc' | 'desc';

/** Context-window minimums offered by the filter, tokens. */
export const CONTEXTS = [32_768, 131_072, 200_000, 1_000_000] as const;

export interface ComparisonFilterState {
  weights: '' | 'open' | 'proprietary';
  provider: string;
  /** blended USD per million tokens, as typed ('' = no ceiling) */
  maxPrice: string;
  /** tokens ('' = any) */
  minContext: string;
  sort: Sort;
  dir: Dir;
}

/** Reads the filter state from URL parameters (unknown values fall back to the defaults). */
export function filterStateOf(sp: Record<string, string | undefined>): ComparisonFilterState {
  const sort = sp.sort && Object.hasOwn(SORTS, sp.sort) ? (sp.sort as Sort) : 'speed';
  return {
    weights: sp.weights === 'open' || sp.weights === 'proprietary' ? sp.weights : '',
    provider: sp.provider && /^[a-z0-9-]{1,80}$/.test(sp.provider) ? sp.provider : '',
    maxPrice: sp.maxPrice && Number.isFinite(Number(sp.maxPrice)) && Number(sp.maxPrice) >= 0 ? sp.maxPrice : '',
    minContext: sp.minContext && /^\d{1,9}$/.test(sp.minContext) ? sp.minContext : '',
    sort,
    dir: sp.dir === 'asc' || sp.dir === 'desc' ? sp.dir : SORTS[sort].better,
  };
}
