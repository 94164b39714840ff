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
