/**
 * Where to send a browser after sign-in/sign-up (`?next=`): only to a page of this site.
 * The target is resolved the way a browser resolves it (WHATWG URL parsing drops tabs and
 * newlines, turns `\` into `/`, reads `//host` as another host), against the site's origin, and
 * refused unless the result has that same origin AND the path handed back resolves to itself there
 * (normalisation can turn `/.//evil.example` into `//evil.example`, which the browser then follows
 * off-site; issue 19 finding 2). Prefix checks on the raw string are not enough:
 * `/%09/evil.example` decodes to `/\t/evil.example`, which a browser follows to evil.example.
 */

/**
 * The same-origin path (pathname + search + hash) that `next` resolves to against `origin`
 * (e.g. `http://localhost:3000`), or `fallback` when `next` is absent, not a path starting with a
 * single `/`, or resolves to any other origin (other host, scheme, port; `javascript:` etc.).
 */
export function resolveSameOriginPath(next: string | null | undefined, origin: string, fallback = '/dashboard'): string {
  if (typeof next !== 'string' || next.length === 0 || next.length > 2048) return fallback;
  let base: URL;
  let target: URL;
  try {
    base = new URL(origin);
    target = new URL(next, base);
  } catch {
    return fallback;
  }
  if (target.origin !== base.origin) return fallback;
  // Only a path-absolute reference of our own: not `//…`, nor a scheme-relative spelling after the
  // parser's clean-up of tabs, newlines and backslashes.
  const cleaned = next.replace(/[\t\n\r]/g, '').replace(/\\/g, '/');
  if (!cleaned.startsWith('/') || cleaned.startsWith('//')) return fallback;
  // The path we hand back is navigated to again (as a relative reference): normalisation may have
  // made it scheme-relative (`/.//evil.example` → `//evil.example`, `/a/..//evil` likewise). Keep
  // it only if it is a single-slash path that resolves to itself on our origin (a fixed point).
  const path = `${target.pathname}${target.search}${target.hash}`;
  if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/\\')) return fallback;
  let again: URL;
  try {
    again = new URL(path, base);
  } catch {
    return fallback;
  }
  if (again.origin !== base.origin || again.href !== target.href) return fallback;
  return path;
}
