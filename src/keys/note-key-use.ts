// A key's last_used_at (GitLab's Keys::LastUsedService): written at most once a day per key, so a
// busy key does not cost a write per fetch.
import type { Deps } from '../platform/deps.js';
import { DAY_MS } from '../platform/clock.js';
import type { KeyRow } from './entities.js';

export async function noteKeyUse(deps: Deps, key: Pick<KeyRow, 'id' | 'last_used_at'>): Promise<void> {
  const now = deps.clock.now();
  if (key.last_used_at !== null && now - Number(key.last_used_at) < DAY_MS) return;
  await deps.db
    .updateTable('keys')
    .set({ last_used_at: now })
    .where('id', '=', key.id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', now - DAY_MS)]))
    .execute();
}
