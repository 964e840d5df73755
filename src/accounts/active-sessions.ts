// A user's signed-in browser sessions: listed on /profile/active_sessions and revoked there, and
// all but the current one ended when the password changes. The page names a session by a digest
// of its key, so the markup never carries what the database looks sessions up by.
import type { Deps } from '../platform/deps.js';
import { sha256Hex } from '../platform/crypto.js';

export interface ActiveSession {
  publicId: string;
  current: boolean;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: number;
  lastSeenAt: number;
}

export function publicSessionId(idDigest: string): string {
  return sha256Hex(`active-session:${idDigest}`).slice(0, 32);
}

/** The user's unexpired sessions, the most recently used first. */
export async function activeSessionsOf(deps: Deps, userId: number, currentDigest: string): Promise<ActiveSession[]> {
  const rows = await deps.db
    .selectFrom('web_sessions')
    .select(['id_digest', 'ip_address', 'user_agent', 'created_at', 'last_seen_at'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', deps.clock.now())
    .orderBy('last_seen_at', 'desc')
    .execute();
  return rows.map((row) => ({
    publicId: publicSessionId(row.id_digest),
    current: row.id_digest === currentDigest,
    ipAddress: row.ip_address,
    userAgent: row.user_agent,
    createdAt: Number(row.created_at),
    lastSeenAt: Number(row.last_seen_at),
  }));
}

/** Revoke one of the user's own sessions by its public id; false when none matched. */
export async function revokeSession(deps: Deps, userId: number, publicId: string): Promise<boolean> {
  const rows = await deps.db.selectFrom('web_sessions').select('id_digest').where('user_id', '=', userId).execute();
  const target = rows.find((row) => publicSessionId(row.id_digest) === publicId);
  if (!target) return false;
  await deps.db.deleteFrom('web_sessions').where('id_digest', '=', target.id_digest).where('user_id', '=', userId).execute();
  return true;
}

/** Sign the user out everywhere but the session that asked (after a password change). */
export async function endOtherSessions(deps: Deps, userId: number, keepDigest: string | null): Promise<void> {
  let query = deps.db.deleteFrom('web_sessions').where((eb) => eb.or([eb('user_id', '=', userId), eb('pending_user_id', '=', userId)]));
  if (keepDigest) query = query.where('id_digest', '!=', keepDigest);
  await query.execute();
}
