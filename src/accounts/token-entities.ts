// GitLab's PersonalAccessToken entity, fields explicit.
import type { Selectable } from 'kysely';
import type { PersonalAccessTokensTable } from '../platform/db/tables/accounts.js';
import { isoTime } from '../platform/clock.js';
import { today } from './access.js';

export type TokenRow = Selectable<PersonalAccessTokensTable>;

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
