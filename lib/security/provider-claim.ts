/**
 * Whether a submitter speaks for an existing provider (issue 19 finding 3, decision 162). A
 * submission that names a provider already in the catalog is attached to it only as a claim:
 * - `verified_domain`: the account's email address is verified and its domain is the provider's
 *   website domain or a subdomain of it (ops@groq.com, ops@eu.groq.com for groq.com);
 * - `unverified`: anything else (an unverified address, another domain, a provider without a
 *   website); an admin must link it explicitly when approving (`admin_linked`);
 * - `new_provider`: the submission created the provider (reviewed as new).
 * Framework-free.
 */

/** How a submission's provider name can be backed (the values of endpoint_submissions.provider_claim). */
export const PROVIDER_CLAIMS = ['new_provider', 'verified_domain', 'unverified', 'admin_linked'] as const;

/** How a submission's provider name is backed. */
export type ProviderClaim = (typeof PROVIDER_CLAIMS)[number];

/** The host of a website URL without `www.`, lower case; null when absent or unparsable. */
export function providerDomainOf(websiteUrl: string | null): string | null {
  if (!websiteUrl) return null;
  try {
    const host = new URL(websiteUrl).hostname.toLowerCase().replace(/\.$/, '');
    return host.replace(/^www\./, '') || null;
  } catch {
    return null;
  }
}

/**
 * The claim for an existing provider with `websiteUrl`, made by an account with `email`
 * (`emailVerified` as better-auth records it). Domain match is exact or by subdomain, label-wise:
 * `evilgroq.com` does not match `groq.com`, `groq.com.evil.example` neither.
 */
export function judgeProviderClaim(p: { email: string; emailVerified: boolean; websiteUrl: string | null }): 'verified_domain' | 'unverified' {
  const domain = providerDomainOf(p.websiteUrl);
  const at = p.email.lastIndexOf('@');
  if (!p.emailVerified || !domain || at < 0) return 'unverified';
  const mailDomain = p.email
    .slice(at + 1)
    .toLowerCase()
    .replace(/\.$/, '');
  return mailDomain === domain || mailDomain.endsWith(`.${domain}`) ? 'verified_domain' : 'unverified';
}
