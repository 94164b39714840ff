/**
 * The site's public origin, the only source of absolute links we print (Atom feed, embed snippet,
 * auth messages) and of the same-origin checks. Never derived from request headers: `Host` and
 * `X-Forwarded-Host/Proto` are chosen by the client (or a cache in front), so a link built from them
 * can point anywhere, even at `javascript://…` (decision record 084).
 */
import { getEnv, type Env } from '../env';

/** `TOKENPACE_PUBLIC_URL`'s origin (e.g. `https://tokenpace.example`), else `http://localhost:PORT`. */
export function publicOrigin(env: Pick<Env, 'TOKENPACE_PUBLIC_URL' | 'PORT'> = getEnv()): string {
  return env.TOKENPACE_PUBLIC_URL ? new URL(env.TOKENPACE_PUBLIC_URL).origin : `http://localhost:${env.PORT}`;
}

/** The host names of this machine's loopback interface as a URL spells them. */
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

/**
 * Origins a browser may send for a write to this site (the same-origin checks and better-auth's
 * `trustedOrigins`): the public origin and, when that origin is on loopback (a local install,
 * `http://localhost:3000` by default), its loopback aliases with the same scheme and port
 * (`http://127.0.0.1:3000`, `http://[::1]:3000`): the same server on the same machine, which a
 * newcomer types as often as the printed `localhost` (issue #23 item 3, docs/decisions/201). A
 * public origin on any other host trusts only itself: aliases of a real site are other sites.
 */
export function trustedOrigins(env: Pick<Env, 'TOKENPACE_PUBLIC_URL' | 'PORT'> = getEnv()): string[] {
  const origin = publicOrigin(env);
  const url = new URL(origin);
  if (!(LOOPBACK_HOSTS as readonly string[]).includes(url.hostname)) return [origin];
  const port = url.port ? `:${url.port}` : '';
  return [origin, ...LOOPBACK_HOSTS.map((h) => `${url.protocol}//${h}${port}`).filter((o) => o !== origin)];
}

/**
 * What to tell someone whose browser sent `origin` (not trusted): where the site lives and the
 * setting that moves it. Names TOKENPACE_PUBLIC_URL exactly; never echoes a header into a link.
 */
export function untrustedOriginMessage(env: Pick<Env, 'TOKENPACE_PUBLIC_URL' | 'PORT'> = getEnv()): string {
  return (
    `This page was opened at an address other than this site's (${publicOrigin(env)}). Open ${publicOrigin(env)} instead; ` +
    'an operator serving the site at another address sets TOKENPACE_PUBLIC_URL to it (e.g. TOKENPACE_PUBLIC_URL=https://tokenpace.example) and restarts.'
  );
}
