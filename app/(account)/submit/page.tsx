import type { Metadata } from 'next';
import Link from 'next/link';
import { listModelChoices } from '@/db/queries/submissions';
import { getDb } from '@/server/shared';
import { ENDPOINT_TEMPLATES } from '@/lib/catalog/seed-catalog';
import { EndpointForm } from '../_components/endpoint-form';
import { requirePageUser } from '../_lib/page-user';

export const metadata: Metadata = { title: 'Submit an endpoint' };

/**
 * /submit – providers submit an endpoint; a verification probe runs and its result is shown.
 * /submit?template=<slug> prefills the form from a catalog template (e.g. a self-hosted DGX B200
 * with trtllm-serve); the owner fills in their base URL and key.
 */
export default async function SubmitPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePageUser('/submit');
  const models = await listModelChoices(getDb());
  const slug = (await searchParams).template;
  const template = ENDPOINT_TEMPLATES.find((t) => t.slug === slug);
  return (
    <>
      <h1>Submit an endpoint</h1>
      <p className="lead">
        We send one short streamed request through our SSRF guard to check the endpoint, show you the result, and queue it for review. Approved endpoints are
        probed every slot and ranked by TPS/user. See <Link href="/methodology">the methodology</Link> and{' '}
        <Link href="/rules">the rules every listed endpoint follows</Link>.
      </p>
      <section aria-labelledby="templates-heading">
        <h2 id="templates-heading">Start from a template</h2>
        <ul>
          {ENDPOINT_TEMPLATES.map((t) => (
            <li key={t.slug}>
              <Link href={`/submit?template=${t.slug}`} aria-current={t.slug === template?.slug ? 'true' : undefined}>
                {t.title}
              </Link>
              <span className="small muted"> – {t.description}</span>
            </li>
          ))}
        </ul>
        {template ? <p className="small">Prefilled from “{template.title}”: replace the base URL host with yours and add your key.</p> : null}
      </section>
      <EndpointForm key={template?.slug ?? 'blank'} models={models} template={template} />
    </>
  );
}
