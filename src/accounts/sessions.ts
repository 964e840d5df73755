// Browser sessions. A signed-in (or half signed-in) session is stored in the database: the cookie
// holds a random value, the table its digest. Rotated at sign-in (session fixation), HttpOnly,
// SameSite=Lax, Secure under https.
//
// An anonymous visitor's session is stateless (anonymous-sessions.ts): its cookie is a random value
// of its own form and its CSRF token an HMAC of it, so reading a page (the sign-in form) writes no
// row; a row is made only at sign-in.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { randomToken, sha256Hex } from '../platform/crypto.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { avatarUrl, toAuthUser } from './user-entities.js';
import type { BrowserSessions, Session } from '../platform/auth/browser-sessions.js';
import { readCookie, setCookie } from '../platform/http/cookies.js';
import { anonymousSession, isAnonymousCookie, newAnonymousCookie, setAnonymousFlash } from './anonymous-sessions.js';
import { currentSettings } from '../application-settings/api.js';
import { confirmationMode, unconfirmedKeptOut } from './confirmation-period.js';

export const SESSION_COOKIE = '_kiln_session';
// GitLab's default session_expire_delay: one week.
const LIFETIME_MS = 7 * 24 * 3600 * 1000;
const TOUCH_INTERVAL_MS = 60_000;

/** The browser's own description, bounded: shown on the active sessions page, never trusted. */
function userAgentOf(request: FastifyRequest): string | null {
  const agent = request.headers['user-agent'];
  return typeof agent === 'string' && agent !== '' ? agent.slice(0, 255) : null;
}

function secureCookies(deps: Deps): boolean {
  return deps.config.baseUrl.startsWith('https:');
}

/**
 * The request's session, or null when it has none (or an expired one). Blocked users are signed out,
 * and so is an unconfirmed one whose grace period ran out (Devise checks on every request too).
 */
export async function loadSession(deps: Deps, request: FastifyRequest): Promise<Session | null> {
  const cookie = readCookie(request, SESSION_COOKIE);
  if (!cookie) return null;
  if (isAnonymousCookie(cookie)) return anonymousSession(deps, request, cookie);
  const now = deps.clock.now();
  const row = await deps.db
    .selectFrom('web_sessions as s')
    .leftJoin('users as u', 'u.id', 's.user_id')
    .leftJoin('users as i', 'i.id', 's.impersonator_id')
    // The primary address, for its confirmation (the banner of email_confirmation_setting `soft`).
    .leftJoin('emails as e', (join) => join.onRef('e.user_id', '=', 's.user_id').onRef('e.email_lower', '=', 'u.email_lower'))
    .select(['s.id_digest', 's.user_id', 's.pending_user_id', 's.csrf_token', 's.flash', 's.expires_at', 's.last_seen_at', 's.impersonator_id'])
    .select(['u.username', 'u.name', 'u.state', 'u.admin', 'u.otp_required', 'u.theme', 'u.email', 'u.created_at', 'u.avatar', 'i.username as impersonator_username'])
    .select(['e.id as email_id', 'e.confirmed_at'])
    .where('s.id_digest', '=', sha256Hex(cookie))
    .executeTakeFirst();
  if (!row || Number(row.expires_at) <= now) return null;
  if (now - Number(row.last_seen_at) > TOUCH_INTERVAL_MS) {
    await deps.db.updateTable('web_sessions').set({ last_seen_at: now, expires_at: now + LIFETIME_MS }).where('id_digest', '=', row.id_digest).execute();
  }
  // Accounts made before addresses were recorded have no row: they were never asked to confirm.
  const settings = row.email_id !== null && row.confirmed_at === null ? await currentSettings(deps) : null;
  const keptOut = settings !== null && unconfirmedKeptOut(settings, Number(row.created_at), now);
  // Only `soft` asks a signed-in user to confirm (under `off` nothing waits on it).
  const asked = settings !== null && confirmationMode(settings) === 'soft';
  const user = row.user_id !== null && row.username !== null && row.state === 'active' && !keptOut
    ? toAuthUser({ id: row.user_id, username: row.username, name: row.name!, state: row.state, admin: row.admin!, otp_required: row.otp_required! } as Parameters<typeof toAuthUser>[0])
    : null;
  const impersonator = user && row.impersonator_id !== null ? { id: Number(row.impersonator_id), username: row.impersonator_username ?? '' } : null;
  return {
    idDigest: row.id_digest, stored: true, user, pendingUserId: row.pending_user_id === null ? null : Number(row.pending_user_id), csrfToken: row.csrf_token, flash: row.flash,
    theme: user ? row.theme ?? 'system' : 'system', impersonator, unconfirmedEmail: user && asked ? row.email : null,
    avatarUrl: user ? avatarUrl('', { id: user.id, username: user.username, avatar: row.avatar }) : null,
  };
}

async function dropStoredSession(deps: Deps, request: FastifyRequest): Promise<void> {
  const old = readCookie(request, SESSION_COOKIE);
  if (old && !isAnonymousCookie(old)) await deps.db.deleteFrom('web_sessions').where('id_digest', '=', sha256Hex(old)).execute();
}

function useCookie(deps: Deps, request: FastifyRequest, reply: FastifyReply, value: string): void {
  setCookie(reply, SESSION_COOKIE, value, { secure: secureCookies(deps) });
  // The cookie is read back by later requests; within this request the new session is returned.
  request.headers.cookie = `${SESSION_COOKIE}=${value}`;
}

/**
 * Start a fresh session (new cookie value), dropping the old one: a stored one at sign-in (a user or a
 * pending second step), else an anonymous one, which writes nothing.
 */
export async function startSession(deps: Deps, request: FastifyRequest, reply: FastifyReply, fields: { userId?: number | null; pendingUserId?: number | null; impersonator?: { id: number; username: string } } = {}): Promise<Session> {
  await dropStoredSession(deps, request);
  if (!fields.userId && !fields.pendingUserId) {
    const value = newAnonymousCookie();
    useCookie(deps, request, reply, value);
    return anonymousSession(deps, request, value, { withFlash: false });
  }
  const value = randomToken(32);
  const now = deps.clock.now();
  const csrfToken = randomToken(32);
  await deps.db
    .insertInto('web_sessions')
    .values({
      id_digest: sha256Hex(value), user_id: fields.userId ?? null, pending_user_id: fields.pendingUserId ?? null, csrf_token: csrfToken, flash: null, created_at: now, last_seen_at: now, expires_at: now + LIFETIME_MS,
      ip_address: request.ip, user_agent: userAgentOf(request), impersonator_id: fields.impersonator?.id ?? null,
    })
    .execute();
  useCookie(deps, request, reply, value);
  let user: AuthUser | null = null;
  let theme: Session['theme'] = 'system';
  let avatar: string | null = null;
  if (fields.userId) {
    const row = await deps.db.selectFrom('users').selectAll().where('id', '=', fields.userId).executeTakeFirstOrThrow();
    user = toAuthUser(row);
    theme = row.theme;
    avatar = avatarUrl('', row);
  }
  return { idDigest: sha256Hex(value), stored: true, user, pendingUserId: fields.pendingUserId ?? null, csrfToken, flash: null, theme, avatarUrl: avatar, impersonator: fields.impersonator ?? null };
}

export async function endSession(deps: Deps, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  await dropStoredSession(deps, request);
  setCookie(reply, SESSION_COOKIE, '', { secure: secureCookies(deps), maxAgeSeconds: 0 });
}

/** The message shown on the next page: in the row of a stored session, in a signed cookie otherwise. */
export async function setFlash(deps: Deps, reply: FastifyReply, session: Session, flash: string | null): Promise<void> {
  if (!session.stored) return setAnonymousFlash(deps, reply, session, flash);
  await deps.db.updateTable('web_sessions').set({ flash }).where('id_digest', '=', session.idDigest).execute();
}

/** What the page framework calls (platform/auth/browser-sessions.ts); registered at setup. */
export function browserSessions(deps: Deps): BrowserSessions {
  return {
    load: (request) => loadSession(deps, request),
    startAnonymous: (request, reply) => startSession(deps, request, reply),
    setFlash: (reply, session, flash) => setFlash(deps, reply, session, flash),
  };
}
