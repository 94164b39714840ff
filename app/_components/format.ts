/** Display formatting shared by pages (numbers keep their unit beside them). */
export function fmt(v: number | null | undefined, digits = 0): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  return v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

export function fmtPct(v: number | null | undefined, digits = 0): string {
  if (v === null || v === undefined) return '–';
  return `${(v * 100).toFixed(digits)}%`;
}

export function boundWord(bound: string): string {
  return { eq: '', approx: '≈ ', lt: '< ', le: '≤ ', gt: '> ', ge: '≥ ' }[bound] ?? '';
}
