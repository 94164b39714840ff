import type { z } from 'zod';

/** One select of a picker form: URL parameter name, visible label, current value and options. */
export interface PickerField {
  name: string;
  label: string;
  value: string;
  options: Array<{ value: string; label: string; group?: string }>;
}

/**
 * The notice of a page whose filter parameters did not parse: names the first invalid field and
 * what the page shows instead (`fallback`, e.g. "the default board"); nothing when they parsed.
 */
export function InvalidFilterNotice({ parsed, fallback }: { parsed: { success: true } | { success: false; error: z.ZodError }; fallback: string }) {
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  return (
    <p className="notice" role="status">
      Ignored an invalid filter ({issue?.path.join('.')}: {issue?.message}); showing {fallback}.
    </p>
  );
}

/**
 * A GET form of labelled selects and a "Show" button: the choice lives in the URL, works without
 * JavaScript, and never navigates while someone is still moving through a select with the keyboard.
 * `hidden` carries parameters the form does not show.
 */
export function PickerForm({
  action,
  fields,
  hidden = {},
  submitLabel = 'Show',
}: {
  action: string;
  fields: PickerField[];
  hidden?: Record<string, string>;
  submitLabel?: string;
}) {
  return (
    <form className="pickers" method="get" action={action}>
      {Object.entries(hidden).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      {fields.map((f) => {
        const groups = [...new Set(f.options.map((o) => o.group ?? ''))];
        return (
          <label key={f.name}>
            {f.label}
            <select name={f.name} defaultValue={f.value}>
              {groups.length > 1 || groups[0]
                ? groups.map((g) => (
                    <optgroup key={g} label={g || 'Other'}>
                      {f.options
                        .filter((o) => (o.group ?? '') === g)
                        .map((o) => (
                          <option key={o.value} value={o.value}>
                            {o.label}
                          </option>
                        ))}
                    </optgroup>
                  ))
                : f.options.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
            </select>
          </label>
        );
      })}
      <button type="submit">{submitLabel}</button>
    </form>
  );
}

/** Workload options: the whole grid, grouped by input length (the headline workload first), labelled with category and sizes. */
export function workloadOptions(workloads: Array<{ slug: string; category: string; inputTokensTarget: number; maxOutputTokens: number; scheduled: boolean }>) {
  const groupOf = (w: { slug: string; inputTokensTarget: number }) =>
    w.slug === HEADLINE_SLUG ? 'Headline: every minute' : `~${w.inputTokensTarget.toLocaleString('en-US')} input tokens: 8 a day`;
  return [...workloads]
    .sort(
      (a, b) =>
        Number(b.slug === HEADLINE_SLUG) - Number(a.slug === HEADLINE_SLUG) || a.inputTokensTarget - b.inputTokensTarget || a.slug.localeCompare(b.slug),
    )
    .map((w) => ({
      value: w.slug,
      label: `${w.slug} (${w.category}, ~${w.inputTokensTarget.toLocaleString('en-US')} in / ${w.maxOutputTokens} out)`,
      group: groupOf(w),
    }));
}
/** lib/probe/workloads HEADLINE_WORKLOAD_SLUG (not imported: that module carries the tokenizer). */
const HEADLINE_SLUG = 'prose-1k';

/**
 * The region picker's field: "All regions (merged)" (value '', so the URL parameter is empty and
 * dropped by the page) and each worker region; null when no region has measured yet.
 */
export function regionField(regions: string[], region: string | null | undefined): PickerField | null {
  if (regions.length === 0) return null;
  const all = region && !regions.includes(region) ? [...regions, region] : regions;
  return {
    name: 'region',
    label: 'Region',
    value: region ?? '',
    options: [{ value: '', label: 'All regions (merged)' }, ...all.map((r) => ({ value: r, label: `${r} only` }))],
  };
}

/** The leaderboard's model / workload / window / region pickers. */
export function LeaderboardPickers({
  models,
  workloads,
  model,
  workload,
  window,
  action,
  regions = [],
  region = null,
}: {
  models: Array<{ slug: string; name: string }>;
  workloads: Array<{ slug: string; category: string; inputTokensTarget: number; maxOutputTokens: number; scheduled: boolean }>;
  model: string;
  workload: string;
  window: string;
  action: string;
  /** worker regions to offer (the regions query); none = no region picker */
  regions?: string[];
  region?: string | null;
}) {
  const regionPicker = regionField(regions, region);
  const windows = ['24h', '72h', '168h', '720h'];
  return (
    <PickerForm
      action={action}
      fields={[
        { name: 'model', label: 'Model', value: model, options: models.map((m) => ({ value: m.slug, label: m.name })) },
        { name: 'workload', label: 'Workload', value: workload, options: workloadOptions(workloads) },
        {
          name: 'window',
          label: 'Window',
          value: windows.includes(window) ? window : '72h',
          options: windows.map((w) => ({ value: w, label: { '24h': 'last 24 h', '72h': 'last 72 h', '168h': 'last 7 days', '720h': 'last 30 days' }[w]! })),
        },
        ...(regionPicker ? [regionPicker] : []),
      ]}
    />
  );
}
