import { redirect } from 'next/navigation';

type Search = Promise<Record<string, string | string[] | undefined>>;

/** /history?model=…&workload=…&range=… → the model page, where per-model history lives. */
export default async function HistoryPage({ searchParams }: { searchParams: Search }) {
  const sp = await searchParams;
  const model = typeof sp.model === 'string' && /^[a-z0-9][a-z0-9-]{0,80}$/.test(sp.model) ? sp.model : 'llama-4-maverick';
  const rest = new URLSearchParams();
  for (const k of ['workload', 'range']) if (typeof sp[k] === 'string') rest.set(k, sp[k] as string);
  redirect(`/models/${model}${rest.size ? `?${rest.toString()}` : ''}`);
}
