// Store the settings an administrator changed, one row each, in one transaction: a setting another
// administrator changes at the same time keeps its own row (no read-modify-write of the whole).
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import type { SettingsChange } from './settings-input.js';
import { forgetCurrentSettings, readStoredSettings, type StoredSettings } from './read-settings.js';

export async function updateApplicationSettings(deps: Deps, change: SettingsChange): Promise<StoredSettings> {
  const now = deps.clock.now();
  const stored = await inTransaction(deps.db, async (trx) => {
    for (const [name, value] of Object.entries(change)) {
      await trx
        .insertInto('application_settings')
        .values({ name, value: JSON.stringify(value), created_at: now, updated_at: now })
        .onConflict((conflict) => conflict.column('name').doUpdateSet({ value: JSON.stringify(value), updated_at: now }))
        .execute();
    }
    return readStoredSettings(trx, deps.config);
  });
  forgetCurrentSettings(deps);
  return stored;
}
