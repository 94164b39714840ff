/**
 * Appends a path to a base URL without doubling slashes, keeping the base's query string.
 * `joinUrl('https://h/v1/', '/chat/completions')` → `https://h/v1/chat/completions`.
 * Throws TypeError when `base` is not a URL (probeEndpoint checks URLs before adapters run).
 */
export function joinUrl(base: string, path: string): string {
  const url = new URL(base);
  url.pathname = url.pathname.replace(/\/+$/, '') + '/' + path.replace(/^\/+/, '');
  return url.toString();
}

/** True when the base URL's path already ends with `suffix` (ignoring a trailing slash). */
export function pathEndsWith(base: string, suffix: string): boolean {
  return new URL(base).pathname.replace(/\/+$/, '').endsWith(suffix);
}
