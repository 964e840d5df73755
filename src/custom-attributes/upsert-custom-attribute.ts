// Sets a custom attribute, making it or changing its value (GitLab's CustomAttributes::UpsertService).
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import type { OwnerColumn } from './owners.js';

export async function upsertCustomAttribute(deps: Deps, column: OwnerColumn, ownerId: number, key: string, value: string) {
  const now = deps.clock.now();
  return inTransaction(deps.db, async (trx) => {
    const updated = await trx.updateTable('custom_attributes').set({ value, updated_at: now }).where(column, '=', ownerId).where('key', '=', key).returningAll().executeTakeFirst();
    if (updated) return updated;
    return trx.insertInto('custom_attributes').values({ user_id: null, group_id: null, project_id: null, [column]: ownerId, key, value, created_at: now, updated_at: now })
      .returningAll().executeTakeFirstOrThrow();
  });
}
