// Browser sessions stored in the database: the cookie holds a random value, the table its digest.
// Rotated at sign-in (session fixation), HttpOnly, SameSite=Lax, Secure under https.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { randomToken, sha256Hex } from '../platform/crypto.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { toAuthUser } from '../accounts/user-entities.js';
import { readCookie, setCookie } from './cookies.js';

export const SESSION_COOKIE = '_kiln_session';
// GitLab's default session_expire_delay: one week.
const LIFETIME_MS = 7 * 24 * 3600 * 1000;
const TOUCH_INTERVAL_MS = 60_000;

export interface Session {
  idDigest: string;
  user: AuthUser | null;
  pendingUserId: number | null;
  csrfToken: string;
  flash: string | null;
}

function secure(deps: Deps): boolean {
  return deps.config.baseUrl.startsWith('https:');
}

/** The request's session, or null when it has none (or an expired one). Blocked users are signed out. */
export async function loadSession(deps: Deps, request: FastifyRequest): Promise<Session | null> {
  const cookie = readCookie(request, SESSION_COOKIE);
  if (!cookie) return null;
  const now = deps.clock.now();
  const row = await deps.db
    .selectFrom('web_sessions as s')
    .leftJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id_digest', 's.user_id', 's.pending_user_id', 's.csrf_token', 's.flash', 's.expires_at', 's.last_seen_at'])
    .select(['u.username', 'u.name', 'u.state', 'u.admin', 'u.otp_required'])
    .where('s.id_digest', '=', sha256Hex(cookie))
    .executeTakeFirst();
  if (!row || Number(row.expires_at) <= now) return null;
  if (now - Number(row.last_seen_at) > TOUCH_INTERVAL_MS) {
    await deps.db.updateTable('web_sessions').set({ last_seen_at: now, expires_at: now + LIFETIME_MS }).where('id_digest', '=', row.id_digest).execute();
  }
  const user = row.user_id !== null && row.username !== null && row.state === 'active'
    ? toAuthUser({ id: row.user_id, username: row.username, name: row.name!, state: row.state, admin: row.admin!, otp_required: row.otp_required! } as Parameters<typeof toAuthUser>[0])
    : null;
  return { idDigest: row.id_digest, user, pendingUserId: row.pending_user_id === null ? null : Number(row.pending_user_id), csrfToken: row.csrf_token, flash: row.flash };
}

/** Start a fresh session (new cookie value), dropping the old one: used at sign-in and for anonymous CSRF. */
export async function startSession(deps: Deps, request: FastifyRequest, reply: FastifyReply, fields: { userId?: number | null; pendingUserId?: number | null; flash?: string | null } = {}): Promise<Session> {
  const old = readCookie(request, SESSION_COOKIE);
  if (old) await deps.db.deleteFrom('web_sessions').where('id_digest', '=', sha256Hex(old)).execute();
  const value = randomToken(32);
  const now = deps.clock.now();
  const csrfToken = randomToken(32);
  await deps.db
    .insertInto('web_sessions')
    .values({ id_digest: sha256Hex(value), user_id: fields.userId ?? null, pending_user_id: fields.pendingUserId ?? null, csrf_token: csrfToken, flash: fields.flash ?? null, created_at: now, last_seen_at: now, expires_at: now + LIFETIME_MS })
    .execute();
  setCookie(reply, SESSION_COOKIE, value, { secure: secure(deps) });
  // The cookie is read back by later requests; within this request the new session is returned.
  request.headers.cookie = `${SESSION_COOKIE}=${value}`;
  let user: AuthUser | null = null;
  if (fields.userId) {
    const row = await deps.db.selectFrom('users').selectAll().where('id', '=', fields.userId).executeTakeFirstOrThrow();
    user = toAuthUser(row);
  }
  return { idDigest: sha256Hex(value), user, pendingUserId: fields.pendingUserId ?? null, csrfToken, flash: fields.flash ?? null };
}

export async function endSession(deps: Deps, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const cookie = readCookie(request, SESSION_COOKIE);
  if (cookie) await deps.db.deleteFrom('web_sessions').where('id_digest', '=', sha256Hex(cookie)).execute();
  setCookie(reply, SESSION_COOKIE, '', { secure: secure(deps), maxAgeSeconds: 0 });
}

export async function setFlash(deps: Deps, session: Session, flash: string | null): Promise<void> {
  await deps.db.updateTable('web_sessions').set({ flash }).where('id_digest', '=', session.idDigest).execute();
}
