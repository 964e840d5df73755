// Personal access tokens: stored as SHA-256 digests, resolved on every API request.
import type { Deps } from '../platform/deps.js';
import type { UserRow } from './lookup.js';
import type { TokenLookup } from '../platform/auth/principal.js';
import { randomToken, sha256Hex } from '../platform/crypto.js';
import { ValidationError } from '../platform/errors.js';
import { today } from './access.js';
import { toAuthUser } from './user-entities.js';
import { tokenWithUser } from './personal-access-tokens-queries.js';
import { isoTime } from '../platform/clock.js';
import { recordActivity } from './record-activity.js';

export const PAT_SCOPES = ['api', 'read_api', 'read_user', 'read_repository', 'write_repository', 'sudo', 'admin_mode'] as const;

/** GitLab's token prefix, so secret scanners recognise leaked Kiln tokens too. */
const PREFIX = 'glpat-';

export interface CreateTokenInput {
  userId: number;
  name: string;
  scopes: string[];
  expiresAt?: string | null;
}

export async function createPersonalAccessToken(deps: Deps, input: CreateTokenInput, plaintext?: string) {
  const errors: Record<string, string[]> = {};
  if (!input.name?.trim()) errors.name = ["can't be blank"];
  if (input.scopes.length === 0) errors.scopes = ["can't be blank"];
  const unknown = input.scopes.filter((scope) => !(PAT_SCOPES as readonly string[]).includes(scope));
  if (unknown.length) errors.scopes = [...(errors.scopes ?? []), `${unknown.join(', ')} is not a valid scope`];
  if (input.expiresAt && input.expiresAt < today(deps.clock.now())) errors.expires_at = ['must be in the future'];
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const token = plaintext ?? `${PREFIX}${randomToken(20)}`;
  const row = await deps.db
    .insertInto('personal_access_tokens')
    .values({
      user_id: input.userId,
      name: input.name.trim(),
      token_digest: sha256Hex(token),
      scopes: input.scopes.join(' '),
      expires_at: input.expiresAt ?? null,
      revoked: 0,
      last_used_at: null,
      created_at: deps.clock.now(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { row, token };
}

export type TokenRow = Awaited<ReturnType<typeof createPersonalAccessToken>>['row'];

export function tokenEntity(row: TokenRow, nowMs: number) {
  const expired = row.expires_at !== null && row.expires_at < today(nowMs);
  return {
    id: Number(row.id),
    name: row.name,
    revoked: row.revoked === 1,
    created_at: isoTime(row.created_at),
    scopes: row.scopes.split(' '),
    user_id: Number(row.user_id),
    last_used_at: isoTime(row.last_used_at),
    active: row.revoked === 0 && !expired,
    expires_at: row.expires_at,
  };
}

export async function revokePersonalAccessToken(deps: Deps, tokenId: number): Promise<void> {
  await deps.db.updateTable('personal_access_tokens').set({ revoked: 1 }).where('id', '=', tokenId).execute();
}

// last_used_at is written at most every 10 minutes per token, as GitLab does, to keep reads read-only.
const LAST_USED_INTERVAL_MS = 10 * 60_000;

export async function resolvePersonalAccessToken(deps: Deps, token: string): Promise<TokenLookup> {
  // Runs on every API request: a cached hot-path read (platform/db/README.md).
  const rows = await deps.readCache.all<UserRow & { token_id: number; scopes: string; expires_at: string | null; revoked: number; last_used_at: number | null }>(
    tokenWithUser(sha256Hex(token)),
    { cache: true },
  );
  const row = rows[0];
  if (!row) return null;
  const now = deps.clock.now();
  if (row.revoked === 1) return { status: 'revoked' };
  if (row.expires_at !== null && row.expires_at < today(now)) return { status: 'expired' };
  if (row.last_used_at === null || now - Number(row.last_used_at) > LAST_USED_INTERVAL_MS) {
    await deps.db.updateTable('personal_access_tokens').set({ last_used_at: now }).where('id', '=', row.token_id).execute();
  }
  // The day the user was last seen (GitLab's last_activity_on, GET /user/activities): once a day.
  if (row.last_activity_on !== today(now)) await recordActivity(deps, Number(row.id), now);
  return {
    status: 'ok',
    principal: { user: toAuthUser(row), scopes: row.scopes.split(' '), via: 'personal_access_token', tokenId: Number(row.token_id) },
  };
}
