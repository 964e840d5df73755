// The current application settings: the stored rows over the defaults. A stored value that no longer
// fits its definition (a setting whose meaning changed) falls back to the default rather than failing.
import type { Executor } from '../platform/db/database.js';
import type { Tx } from '../platform/db/statements.js';
import type { Deps } from '../platform/deps.js';
import type { Config } from '../config.js';
import { SETTING_NAMES, SETTINGS, type ApplicationSettings, type SettingDefinition, type SettingName } from './definitions.js';
import { storedSettingRows } from './settings-queries.js';
import { cacheSlot } from '../platform/instance-caches.js';

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

/** The configuration a reader may be given: what defaults come from. */
type ConfigDefaults = Pick<Config, 'protectedPathsPerMinute'> & Partial<Pick<Config, 'baseUrl'>>;

/**
 * Defaults the server's configuration gives, when it is known: KILN_PROTECTED_PATHS_PER_MINUTE, and
 * GitLab's default commit e-mail host, users.noreply.<the instance's host>.
 */
function configDefaults(config: ConfigDefaults | undefined): Partial<Record<SettingName, unknown>> {
  if (!config) return {};
  const defaults: Partial<Record<SettingName, unknown>> = { throttle_protected_paths_requests_per_period: config.protectedPathsPerMinute };
  if (config.baseUrl) defaults.commit_email_hostname = `users.noreply.${new URL(config.baseUrl).hostname}`;
  return defaults;
}

function settingsOf(rows: readonly SettingRow[], config?: ConfigDefaults): StoredSettings {
  const values = Object.fromEntries(SETTING_NAMES.map((name) => [name, structuredClone(SETTINGS[name].default)])) as Record<SettingName, unknown>;
  const fromConfig = configDefaults(config);
  Object.assign(values, fromConfig);
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
  // A setting stored blank (commit_email_hostname: '') reads as the configuration's default, as GitLab's `super.presence || default`.
  for (const [name, value] of Object.entries(fromConfig)) if (values[name as SettingName] === null) values[name as SettingName] = value;
  return { values: values as unknown as ApplicationSettings, createdAt, updatedAt };
}

/** `config`: the server's configuration, for the defaults it gives (the API's and the pages' view). */
export async function readStoredSettings(db: Executor, config?: ConfigDefaults): Promise<StoredSettings> {
  return settingsOf(await db.selectFrom('application_settings').selectAll().execute(), config);
}

/** The settings as other features read them (webhooks: allow_local_requests_from_web_hooks_and_services). */
export async function readApplicationSettings(db: Executor): Promise<ApplicationSettings> {
  return (await readStoredSettings(db)).values;
}

/** The settings read in the caller's transaction (a domain event's handler: repositories' housekeeping). */
export async function readSettingsIn(tx: Tx): Promise<ApplicationSettings> {
  return settingsOf(await tx.all<SettingRow>(storedSettingRows())).values;
}

/**
 * How long a node keeps the settings it read for the per-request throttles before reading them again.
 * GitLab keeps ApplicationSetting.current in process memory the same way (application_settings_cache_seconds,
 * 60 s by default); Kiln keeps them shorter. A change made through this node (the API, the admin pages)
 * is seen at once (`forgetCurrentSettings`); one made through another node within this time.
 */
export const CURRENT_SETTINGS_KEEP_MS = 5_000;

interface KeptSettings {
  settings: ApplicationSettings | null;
  /** performance.now() when read: a real interval, whatever the app's clock says. */
  readAt: number;
}

const KEPT = cacheSlot<KeptSettings>('application-settings.current', () => ({ settings: null, readAt: 0 }));

/**
 * The settings with the configuration's defaults, for what reads them on every request (the
 * throttles): kept per app for CURRENT_SETTINGS_KEEP_MS, so a request makes no statement for them
 * (on PostgreSQL a request's look-ups are one round trip: platform/db/reads.ts).
 */
export async function currentSettings(deps: Pick<Deps, 'reads' | 'config' | 'caches'>): Promise<ApplicationSettings> {
  const kept = deps.caches.of(KEPT);
  const now = performance.now();
  if (kept.settings && now - kept.readAt < CURRENT_SETTINGS_KEEP_MS) return kept.settings;
  const rows = await deps.reads.all<SettingRow>(storedSettingRows());
  kept.settings = Object.freeze(settingsOf(rows, deps.config).values);
  kept.readAt = now;
  return kept.settings;
}

/** After this node changed a setting: the next request reads them again. */
export function forgetCurrentSettings(deps: Pick<Deps, 'caches'>): void {
  deps.caches.of(KEPT).settings = null;
}
