'use client';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { createEndpointBodySchema, DEPLOYMENT_KINDS, fieldIssues, updateEndpointBodySchema } from '@/lib/api/submission-schemas';
import { PROTOCOLS } from '@/lib/probe/types';
import type { EndpointPricing } from '@/lib/catalog/pricing';
import type { DeclaredServingFacts } from '@/lib/catalog/endpoint-deployment';
import { RULES_VERSION } from '@/lib/rules/publication-rules';
import { callApi, errorsByField } from './api-client';
import { Field, SelectField } from './field';
import { VerificationResult, type VerificationLike } from './verification-result';
import { FormError } from './form-error';
import { FormSubmit } from './form-submit';

const PROPOSE = '__propose__';

/** Current values when editing (never the API key: only whether one is set). */
export interface EndpointFormValues extends DeclaredServingFacts {
  id: number;
  provider: string;
  model: string;
  baseUrl: string;
  protocol: string;
  apiModelId: string;
  hasApiKey: boolean;
  deploymentKind: string | null;
  system: string | null;
  /** Declared context window, tokens; null when undeclared. */
  contextWindowTokens?: number | null;
  contact: string | null;
  notes: string | null;
  /** Declared prices (lib/catalog/pricing), null when none. */
  pricing?: EndpointPricing | null;
}

/** Price inputs: form field name → pricing key (USD per million tokens, source URL, date). */
const PRICE_FIELDS = [
  ['priceInput', 'inputUsdPerMTokens'],
  ['priceOutput', 'outputUsdPerMTokens'],
  ['priceCachedInput', 'cachedInputUsdPerMTokens'],
  ['priceSource', 'source'],
  ['priceAsOf', 'asOf'],
] as const;

const TEXT_FIELDS = ['region', 'hardware', 'engine', 'precision', 'speculativeDecoding', 'system', 'contact', 'notes'] as const;

/** Prefilled values of a new submission from a catalog template (lib/catalog ENDPOINT_TEMPLATES). */
export type EndpointFormTemplate = Partial<
  Record<'baseUrl' | 'protocol' | 'apiModelId' | 'hardware' | 'engine' | 'precision' | 'speculativeDecoding' | 'deploymentKind' | 'system', string | null>
> & { modelSlug?: string };

/**
 * The submission form (create) and the owner's edit form. Validates with the same zod schema as
 * the API, shows every field error inline, then shows the verification probe's result.
 */
export function EndpointForm({
  models,
  initial,
  template,
}: {
  models: Array<{ slug: string; name: string }>;
  initial?: EndpointFormValues;
  template?: EndpointFormTemplate;
}) {
  const router = useRouter();
  const editing = Boolean(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [modelChoice, setModelChoice] = useState(models.find((m) => m.slug === template?.modelSlug)?.slug ?? models[0]?.slug ?? PROPOSE);
  const [result, setResult] = useState<{ id: number; status: string; verification: VerificationLike | null } | null>(null);

  function collect(form: HTMLFormElement): Record<string, unknown> {
    const f = new FormData(form);
    const text = (k: string) => String(f.get(k) ?? '');
    const body: Record<string, unknown> = {
      baseUrl: text('baseUrl'),
      protocol: text('protocol'),
      apiModelId: text('apiModelId'),
      deploymentKind: text('deploymentKind'),
    };
    for (const k of TEXT_FIELDS) body[k] = text(k);
    const draft = text('draftLength').trim();
    body.draftLength = draft === '' ? '' : /^\d+$/.test(draft) ? Number(draft) : draft;
    // "131072", "131,072" or "128k" → tokens; anything else goes to the schema, which names the field.
    const ctx = text('contextWindowTokens').trim().replaceAll(',', '').replaceAll('_', '');
    body.contextWindowTokens = ctx === '' ? '' : /^\d+$/.test(ctx) ? Number(ctx) : /^\d+k$/i.test(ctx) ? Number(ctx.slice(0, -1)) * 1024 : ctx;
    const key = text('apiKey');
    if (key !== '') body.apiKey = key;
    // Declared price: all-empty means none; numbers where numbers are meant, the schema names any bad field.
    const price = Object.fromEntries(PRICE_FIELDS.map(([name, k]) => [k, text(name).trim()]));
    const num = (x: string) => (/^\d+(\.\d+)?$/.test(x) ? Number(x) : x);
    const pricing = Object.values(price).every((x) => x === '')
      ? null
      : {
          inputUsdPerMTokens: num(price.inputUsdPerMTokens!),
          outputUsdPerMTokens: num(price.outputUsdPerMTokens!),
          cachedInputUsdPerMTokens: price.cachedInputUsdPerMTokens === '' ? null : num(price.cachedInputUsdPerMTokens!),
          currency: 'USD',
          source: price.source,
          asOf: price.asOf,
        };
    if (!editing) {
      body.provider = text('provider');
      if (modelChoice === PROPOSE) body.proposedModel = text('proposedModel');
      else body.model = modelChoice;
      if (pricing) body.pricing = pricing;
      return body;
    }
    // edit: send only what changed; cleared optional text becomes null
    const changed: Record<string, unknown> = {};
    const cur = initial! as unknown as Record<string, unknown>;
    for (const [k, v] of Object.entries(body)) {
      if (k === 'apiKey') changed.apiKey = v;
      else if (v === '' && (cur[k] ?? null) !== null) changed[k] = null;
      else if (v !== '' && v !== (cur[k] ?? '')) changed[k] = v;
    }
    if (f.get('removeApiKey') === 'on') changed.apiKey = null;
    if (JSON.stringify(pricing) !== JSON.stringify(initial!.pricing ?? null)) changed.pricing = pricing;
    return changed;
  }

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setFormError(null);
    const body = collect(e.currentTarget);
    const parsed = editing ? updateEndpointBodySchema.safeParse(body) : createEndpointBodySchema.safeParse(body);
    // New submissions confirm the published rules (lib/rules) before anything is sent.
    const rulesError = !editing && new FormData(e.currentTarget).get('acceptRules') !== 'on' ? { acceptRules: 'Confirm the rules to submit.' } : null;
    if (!parsed.success || rulesError) {
      const errs: Record<string, string> = { ...(parsed.success ? {} : errorsByField(fieldIssues(parsed.error))), ...rulesError };
      setErrors(errs);
      if (errs.body) setFormError(errs.body === 'nothing to change' ? 'Nothing to change.' : errs.body);
      else if (rulesError && parsed.success) setFormError('Please correct the fields marked below.');
      return;
    }
    setErrors({});
    setBusy(true);
    const r = editing
      ? await callApi<{ endpoint: { id: number; status: string }; verification: VerificationLike | null }>('PATCH', `/api/v1/endpoints/${initial!.id}`, body)
      : await callApi<{ endpoint: { id: number; status: string }; verification: VerificationLike | null }>('POST', '/api/v1/endpoints', body);
    setBusy(false);
    if (!r.ok) {
      setErrors(errorsByField(r.error.fields));
      setFormError(r.error.fields.length > 0 ? 'Please correct the fields marked below.' : r.error.message);
      return;
    }
    setResult({ id: r.data.endpoint.id, status: r.data.endpoint.status, verification: r.data.verification });
    router.refresh();
  }

  if (result) {
    return (
      <div role="status" aria-live="polite">
        <h2>
          {editing ? 'Saved' : 'Submitted'}: endpoint {result.id} is {result.status}
        </h2>
        {result.verification ? <VerificationResult v={result.verification} /> : null}
        <p>{result.status === 'pending' ? 'An admin reviews it next; once approved it is probed every slot and appears on the leaderboard.' : null}</p>
        <p>
          <Link href="/dashboard">Go to your dashboard</Link>
          {editing ? null : (
            <>
              {' '}
              ·{' '}
              <button type="button" onClick={() => setResult(null)}>
                Submit another
              </button>
            </>
          )}
        </p>
      </div>
    );
  }

  const v = (k: keyof EndpointFormValues) => (initial ? String(initial[k] ?? '') : String((template as Record<string, unknown> | undefined)?.[k] ?? ''));
  return (
    <form onSubmit={onSubmit} noValidate className="account-form" aria-label={editing ? 'Edit endpoint' : 'Submit an endpoint'}>
      <FormError error={formError} />
      {!editing ? (
        <fieldset>
          <legend>What is served</legend>
          <Field id="provider" label="Provider" error={errors.provider}>
            {(a) => <input {...a} name="provider" />}
          </Field>
          <Field id="model" label="Model" error={errors.model}>
            {(a) => (
              <select {...a} name="model" value={modelChoice} onChange={(e) => setModelChoice(e.target.value)}>
                {models.map((m) => (
                  <option key={m.slug} value={m.slug}>
                    {m.name}
                  </option>
                ))}
                <option value={PROPOSE}>Propose a model not listed…</option>
              </select>
            )}
          </Field>
          {modelChoice === PROPOSE ? (
            <Field id="proposedModel" label="Proposed model name" error={errors.proposedModel}>
              {(a) => <input {...a} name="proposedModel" />}
            </Field>
          ) : null}
        </fieldset>
      ) : (
        <p>
          {initial!.provider} · {initial!.model}
        </p>
      )}
      <fieldset>
        <legend>How to reach it</legend>
        <Field id="baseUrl" label="Base URL" error={errors.baseUrl} hint="e.g. https://api.example.com/v1 (public addresses only)">
          {(a) => <input {...a} name="baseUrl" defaultValue={v('baseUrl')} inputMode="url" />}
        </Field>
        <SelectField
          id="protocol"
          label="Protocol"
          error={errors.protocol}
          defaultValue={v('protocol') || 'openai-chat'}
          options={PROTOCOLS.map((p) => ({ value: p, label: p }))}
        />
        <Field id="apiModelId" label="API model id" error={errors.apiModelId}>
          {(a) => <input {...a} name="apiModelId" defaultValue={v('apiModelId')} />}
        </Field>
        <Field
          id="apiKey"
          label={editing ? 'New API key (leave empty to keep the current one)' : 'API key (optional)'}
          error={errors.apiKey}
          hint="Stored encrypted; never shown again, never logged."
        >
          {(a) => <input {...a} name="apiKey" type="password" autoComplete="off" />}
        </Field>
        {editing && initial!.hasApiKey ? (
          <label className="small">
            <input type="checkbox" name="removeApiKey" /> Remove the stored API key
          </label>
        ) : null}
        <Field id="region" label="Region (optional)" error={errors.region}>
          {(a) => <input {...a} name="region" defaultValue={v('region')} />}
        </Field>
      </fieldset>
      <fieldset>
        <legend>Declared metadata</legend>
        <Field id="hardware" label="Hardware (optional)" error={errors.hardware} hint="e.g. DGX B200">
          {(a) => <input {...a} name="hardware" defaultValue={v('hardware')} />}
        </Field>
        <Field id="engine" label="Engine (optional)" error={errors.engine} hint="e.g. TensorRT-LLM, vLLM, SGLang">
          {(a) => <input {...a} name="engine" defaultValue={v('engine')} />}
        </Field>
        <Field id="precision" label="Precision (optional)" error={errors.precision} hint="e.g. FP8, BF16, FP4">
          {(a) => <input {...a} name="precision" defaultValue={v('precision')} />}
        </Field>
        <Field id="speculativeDecoding" label="Speculative decoding method (optional)" error={errors.speculativeDecoding} hint="e.g. EAGLE-3">
          {(a) => <input {...a} name="speculativeDecoding" defaultValue={v('speculativeDecoding')} />}
        </Field>
        <Field id="draftLength" label="Draft length (optional)" error={errors.draftLength}>
          {(a) => <input {...a} name="draftLength" inputMode="numeric" defaultValue={v('draftLength')} />}
        </Field>
        <SelectField
          id="deploymentKind"
          label="Deployment kind"
          error={errors.deploymentKind}
          defaultValue={v('deploymentKind') || 'shared'}
          options={DEPLOYMENT_KINDS.map((k) => ({ value: k, label: k === 'shared' ? 'shared serverless' : k }))}
        />
        <Field
          id="contextWindowTokens"
          label="Context window, tokens (optional)"
          error={errors.contextWindowTokens}
          hint="e.g. 131072 or 128k. The ~100k-input workloads run only on endpoints that declare a window that holds them."
        >
          {(a) => <input {...a} name="contextWindowTokens" inputMode="numeric" defaultValue={v('contextWindowTokens')} />}
        </Field>
        <Field
          id="system"
          label="System (optional)"
          error={errors.system}
          hint="The serving system in the words published claims use, e.g. NVIDIA DGX B200 (8x B200), TensorRT-LLM, self-hosted: a claim about that system is shown beside this endpoint."
        >
          {(a) => <input {...a} name="system" defaultValue={v('system')} />}
        </Field>
      </fieldset>
      <fieldset>
        <legend>Price (optional, declared)</legend>
        <p className="small muted">
          Shown as you declare it, never as measured: USD per million tokens, with the public page you read it from and the date. Leave all empty for none.
        </p>
        <Field id="pricing.inputUsdPerMTokens" label="Input, USD per million tokens" error={errors['pricing.inputUsdPerMTokens']}>
          {(a) => <input {...a} name="priceInput" inputMode="decimal" defaultValue={initial?.pricing?.inputUsdPerMTokens ?? ''} />}
        </Field>
        <Field id="pricing.outputUsdPerMTokens" label="Output, USD per million tokens" error={errors['pricing.outputUsdPerMTokens']}>
          {(a) => <input {...a} name="priceOutput" inputMode="decimal" defaultValue={initial?.pricing?.outputUsdPerMTokens ?? ''} />}
        </Field>
        <Field id="pricing.cachedInputUsdPerMTokens" label="Cached input, USD per million tokens (optional)" error={errors['pricing.cachedInputUsdPerMTokens']}>
          {(a) => <input {...a} name="priceCachedInput" inputMode="decimal" defaultValue={initial?.pricing?.cachedInputUsdPerMTokens ?? ''} />}
        </Field>
        <Field id="pricing.source" label="Price source (URL)" error={errors['pricing.source']} hint="The public pricing page">
          {(a) => <input {...a} name="priceSource" inputMode="url" defaultValue={initial?.pricing?.source ?? ''} />}
        </Field>
        <Field id="pricing.asOf" label="Price as of (YYYY-MM-DD)" error={errors['pricing.asOf'] ?? errors.pricing}>
          {(a) => <input {...a} name="priceAsOf" defaultValue={initial?.pricing?.asOf ?? ''} />}
        </Field>
      </fieldset>
      <fieldset>
        <legend>Contact</legend>
        <Field id="contact" label="Contact" error={errors.contact} hint="An email or URL where we can reach you about this endpoint.">
          {(a) => <input {...a} name="contact" defaultValue={v('contact')} />}
        </Field>
        <Field id="notes" label="Notes (optional)" error={errors.notes}>
          {(a) => <textarea {...a} name="notes" rows={3} defaultValue={v('notes')} />}
        </Field>
      </fieldset>
      {editing ? null : (
        <Field
          id="acceptRules"
          label={`I confirm this endpoint follows the rules (version ${RULES_VERSION}): it is the endpoint paying customers get, its metadata and price are true, and its terms allow measurement.`}
          error={errors.acceptRules}
        >
          {(a) => <input {...a} type="checkbox" name="acceptRules" />}
        </Field>
      )}
      {editing ? null : (
        <p className="small">
          <Link href="/rules" target="_blank">
            Read the rules
          </Link>
        </p>
      )}
      <FormSubmit error={errors.body} busy={busy} busyLabel="Running the verification probe…">
        {editing ? 'Save changes' : 'Submit and verify'}
      </FormSubmit>
    </form>
  );
}
