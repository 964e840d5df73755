// The settings parameters GitLab's projects_helpers.rb declares for both `POST /projects` and
// `PUT /projects/:id` (optional_project_params), and their parsed form for createProject and
// updateProject: a project created with a setting has it as if it had been set right after.
import { p } from '../platform/http/params.js';
import type { FeatureAccessLevel } from '../platform/db/tables/accounts.js';
import { PROJECT_SETTINGS, type ProjectSettings } from './project-settings.js';
import { settingParams } from './stored-settings.js';
import { PROJECT_SETTING_ALIASES, PROJECT_STORED_SETTINGS } from './settings-tables.js';
import { UNSUPPORTED_PROJECT_PARAMS } from './unsupported-params.js';

const FEATURE_LEVELS = ['disabled', 'private', 'enabled'] as const;

export const PROJECT_SETTING_PARAMS = {
  ...PROJECT_SETTINGS,
  topics: p.strings.optional({ description: 'The list of topics (comma-separated or an array)' }),
  tag_list: p.strings.optional({ description: 'Deprecated: use topics' }),
  issues_access_level: p.string.optional({ values: FEATURE_LEVELS }),
  repository_access_level: p.string.optional({ values: FEATURE_LEVELS }),
  issues_enabled: p.boolean.optional({ description: 'Deprecated: use issues_access_level' }),
  merge_requests_access_level: p.string.optional({ values: FEATURE_LEVELS }),
  merge_requests_enabled: p.boolean.optional({ description: 'Deprecated: use merge_requests_access_level' }),
  ...settingParams(PROJECT_STORED_SETTINGS, PROJECT_SETTING_ALIASES),
  ...UNSUPPORTED_PROJECT_PARAMS,
};

/**
 * What `POST /projects` declares: all of the above but the artifact size limit, which GitLab declares
 * for updates only (optional_update_params_ce, and only an administrator's to change): sent with a new
 * project it is ignored, as any undeclared parameter.
 */
const { max_artifacts_size: _updateOnly, ...createSettingParams } = PROJECT_SETTING_PARAMS as typeof PROJECT_SETTING_PARAMS & { max_artifacts_size?: unknown };
export const PROJECT_CREATE_SETTING_PARAMS = createSettingParams;

export interface ProjectSettingsInput {
  /** PROJECT_SETTINGS as parsed; undefined ones are left as they are. */
  settings?: ProjectSettings;
  /** The parsed parameters of PROJECT_STORED_SETTINGS and its aliases (settings-tables.ts). */
  stored?: Record<string, unknown>;
  topics?: string[];
  issuesAccessLevel?: FeatureAccessLevel;
  repositoryAccessLevel?: FeatureAccessLevel;
  mergeRequestsAccessLevel?: FeatureAccessLevel;
}

const levelOf = (level: unknown, enabled: unknown) => (level ?? (enabled === undefined ? undefined : enabled ? 'enabled' : 'disabled')) as FeatureAccessLevel | undefined;

/** The settings part of createProject's and updateProject's input, from the parsed parameters. */
export function projectSettingsInput(params: Record<string, unknown>): ProjectSettingsInput {
  return {
    settings: Object.fromEntries(Object.keys(PROJECT_SETTINGS).map((name) => [name, params[name]])),
    stored: params,
    topics: (params.topics ?? params.tag_list) as string[] | undefined,
    issuesAccessLevel: levelOf(params.issues_access_level, params.issues_enabled),
    repositoryAccessLevel: params.repository_access_level as FeatureAccessLevel | undefined,
    mergeRequestsAccessLevel: levelOf(params.merge_requests_access_level, params.merge_requests_enabled),
  };
}
