// The current application settings: the stored rows over the defaults. A stored value that no longer
// fits its definition (a setting whose meaning changed) falls back to the default rather than failing.
import type { Executor } from '../platform/db/database.js';
import { SETTING_NAMES, SETTINGS, type ApplicationSettings, type SettingDefinition, type SettingName } from './definitions.js';

export interface StoredSettings {
  values: ApplicationSettings;
  /** When the first and the last setting were changed; `null` while every setting has its default. */
  createdAt: number | null;
  updatedAt: number | null;
}

export async function readStoredSettings(db: Executor): Promise<StoredSettings> {
  const rows = await db.selectFrom('application_settings').selectAll().execute();
  const values = Object.fromEntries(SETTING_NAMES.map((name) => [name, structuredClone(SETTINGS[name].default)])) as Record<SettingName, unknown>;
  let createdAt: number | null = null;
  let updatedAt: number | null = null;
  for (const row of rows) {
    createdAt = createdAt === null ? Number(row.created_at) : Math.min(createdAt, Number(row.created_at));
    updatedAt = updatedAt === null ? Number(row.updated_at) : Math.max(updatedAt, Number(row.updated_at));
    // A setting Kiln behaves as its default for reads as the default, whatever an older version stored.
    if (!(row.name in SETTINGS) || (SETTINGS[row.name as SettingName] as SettingDefinition).fixed) continue;
    try {
      values[row.name as SettingName] = JSON.parse(row.value);
    } catch {
      /* keep the default */
    }
  }
  return { values: values as unknown as ApplicationSettings, createdAt, updatedAt };
}

/** The settings as other features read them (webhooks: allow_local_requests_from_web_hooks_and_services). */
export async function readApplicationSettings(db: Executor): Promise<ApplicationSettings> {
  return (await readStoredSettings(db)).values;
}
