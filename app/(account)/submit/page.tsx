import type { Metadata } from 'next';
import Link from 'next/link';
import { listModelChoices } from '@/db/queries/submissions';
import { getDb } from '@/db/shared';
import { EndpointForm } from '../_components/endpoint-form';
import { requirePageUser } from '../_lib/page-user';

export const metadata: Metadata = { title: 'Submit an endpoint' };

/** /submit – providers submit an endpoint; a verification probe runs and its result is shown. */
export default async function SubmitPage() {
  await requirePageUser('/submit');
  const models = await listModelChoices(getDb());
  return (
    <>
      <h1>Submit an endpoint</h1>
      <p className="lead">
        We send one short streamed request through our SSRF guard to check the endpoint, show you the result, and queue it for review.
        Approved endpoints are probed every slot and ranked by TPS/user. See <Link href="/methodology">the methodology</Link>.
      </p>
      <EndpointForm models={models} />
    </>
  );
}
