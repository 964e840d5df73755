// The current application settings: the stored rows over the defaults. A stored value that no longer
// fits its definition (a setting whose meaning changed) falls back to the default rather than failing.
import type { Executor } from '../platform/db/database.js';
import type { Deps } from '../platform/deps.js';
import type { Config } from '../config.js';
import { SETTING_NAMES, SETTINGS, type ApplicationSettings, type SettingDefinition, type SettingName } from './definitions.js';
import { SETTINGS_TABLES, storedSettingRows } from './settings-queries.js';

export interface StoredSettings {
  values: ApplicationSettings;
  /** When the first and the last setting were changed; `null` while every setting has its default. */
  createdAt: number | null;
  updatedAt: number | null;
}

interface SettingRow {
  name: string;
  value: string;
  created_at: number | string;
  updated_at: number | string;
}

/** Defaults the server's configuration gives (KILN_PROTECTED_PATHS_PER_MINUTE), when it is known. */
function configDefaults(config: Pick<Config, 'protectedPathsPerMinute'> | undefined): Partial<Record<SettingName, unknown>> {
  return config ? { throttle_protected_paths_requests_per_period: config.protectedPathsPerMinute } : {};
}

function settingsOf(rows: readonly SettingRow[], config?: Pick<Config, 'protectedPathsPerMinute'>): StoredSettings {
  const values = Object.fromEntries(SETTING_NAMES.map((name) => [name, structuredClone(SETTINGS[name].default)])) as Record<SettingName, unknown>;
  Object.assign(values, configDefaults(config));
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

/** `config`: the server's configuration, for the defaults it gives (the API's and the pages' view). */
export async function readStoredSettings(db: Executor, config?: Pick<Config, 'protectedPathsPerMinute'>): Promise<StoredSettings> {
  return settingsOf(await db.selectFrom('application_settings').selectAll().execute(), config);
}

/** The settings as other features read them (webhooks: allow_local_requests_from_web_hooks_and_services). */
export async function readApplicationSettings(db: Executor): Promise<ApplicationSettings> {
  return (await readStoredSettings(db)).values;
}

/**
 * The settings with the configuration's defaults, through the row cache: for what reads them on
 * every request (the throttles). On SQLite a write of any setting, by this process or another,
 * makes the next read fetch them again; on PostgreSQL each read is one statement (platform/db/reads.ts).
 */
export async function currentSettings(deps: Pick<Deps, 'reads' | 'config'>): Promise<ApplicationSettings> {
  const rows = await deps.reads.cached<SettingRow>(storedSettingRows(), SETTINGS_TABLES);
  // A cache hit hands out the same frozen rows: fold them once.
  let folded = FOLDED.get(rows);
  if (!folded) FOLDED.set(rows, (folded = Object.freeze(settingsOf(rows, deps.config).values)));
  return folded;
}

// Keyed by the row cache's rows (per app by construction), and by the config through them: one app, one config.
const FOLDED = new WeakMap<readonly SettingRow[], ApplicationSettings>();
