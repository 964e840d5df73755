// Short-lived LFS tokens (GitLab's Gitlab::LfsToken): handed out by the LFS batch API (../lfs/) in the actions'
// Authorization header and by `git-lfs-authenticate` over SSH, and accepted as the HTTP Basic password
// of git and LFS requests with the actor's user name (`lfs+deploy-key-<id>` for a deploy key). A token
// is `<expiry in epoch seconds>.<HMAC>` under the instance secret: nothing is stored, and it names its
// actor by id, so a renamed or re-created account does not inherit one. A blocked user's token stops
// working with the account, because the access decision reads the user's state every time.
import { createHmac } from 'node:crypto';
import type { Deps } from '../../platform/deps.js';
import { safeEqual } from '../../platform/crypto.js';

/** Seconds a token lives (GitLab: 1800 by default). */
export const LFS_TOKEN_TTL_SECONDS = 1800;

const TOKEN = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/;
const DEPLOY_KEY_USER = /^lfs\+deploy-key-(\d{1,15})$/;

/** Who a token speaks for: a user or a deploy key, by id. */
export type LfsTokenActor = { kind: 'user'; id: number } | { kind: 'deploy_key'; id: number };

function mac(deps: Deps, actor: LfsTokenActor, expires: number): string {
  return createHmac('sha256', deps.secrets.sessionKey).update(`kiln:lfs-token\u0000${actor.kind}\u0000${actor.id}\u0000${expires}`).digest('base64url');
}

export function lfsUsername(actor: LfsTokenActor, username: string | null): string {
  return actor.kind === 'deploy_key' ? `lfs+deploy-key-${actor.id}` : (username ?? '');
}

export function issueLfsToken(deps: Deps, actor: LfsTokenActor): string {
  const expires = Math.floor(deps.clock.now() / 1000) + LFS_TOKEN_TTL_SECONDS;
  return `${expires}.${mac(deps, actor, expires)}`;
}

/** Whether `password` looks like an LFS token at all (so other credentials are not tried as one). */
export function looksLikeLfsToken(password: string): boolean {
  return TOKEN.test(password);
}

/** The deploy key a `lfs+deploy-key-<id>` user name names, or null for any other name. */
export function deployKeyOfUsername(username: string): number | null {
  const match = DEPLOY_KEY_USER.exec(username);
  return match ? Number(match[1]) : null;
}

/** Whether `password` is a live token for `actor`. */
export function verifyLfsToken(deps: Deps, actor: LfsTokenActor, password: string): boolean {
  const match = TOKEN.exec(password);
  if (!match) return false;
  const expires = Number(match[1]);
  if (expires * 1000 <= deps.clock.now()) return false;
  return safeEqual(match[2], mac(deps, actor, expires));
}

export function basicAuthorization(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}
