/**
 * One line saying which worker regions a leaderboard answer covers (its `region`, `regions` and
 * `merged` fields): "Probes from region eu only" or "All regions merged: eu, us".
 */
export function RegionCoverage({ answer }: { answer: { region: string | null; regions?: string[]; merged?: boolean } }) {
  const regions = answer.regions ?? [];
  const text = answer.region
    ? `Probes from worker region ${answer.region} only${regions.length === 0 ? ' (none in this window)' : ''}.`
    : regions.length === 0
      ? 'All worker regions merged (no probes in this window).'
      : regions.length === 1
        ? `Probes from worker region ${regions[0]} (the only region that measured in this window).`
        : `All worker regions merged: ${regions.join(', ')}.`;
  return (
    <p className="muted small" data-region-coverage={answer.region ?? 'merged'}>
      {text}
    </p>
  );
}
