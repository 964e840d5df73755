// GitLab's Member entity, fields explicit.
import { isoTime } from '../platform/clock.js';
import { userBasic } from './user-entities.js';
import type { UserRow } from './lookup.js';

export function memberEntity(baseUrl: string, row: { id: number; username: string; name: string; state: UserRow['state']; avatar: string | null; access_level: number; expires_at: string | null; created_at: number }) {
  return {
    ...userBasic(baseUrl, row),
    access_level: row.access_level,
    created_at: isoTime(row.created_at),
    expires_at: row.expires_at,
    membership_state: 'active',
  };
}
