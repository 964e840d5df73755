// GET and PUT /application/settings for administrators (lib/api/settings.rb), and GET /metadata
// (lib/api/metadata.rb): thin routes over the reader, the input rules and the one action.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { GITLAB_COMPAT_VERSION, KILN_VERSION } from '../platform/version.js';
import { readStoredSettings } from './read-settings.js';
import { parseSettingsInput } from './settings-input.js';
import { updateApplicationSettings } from './update-settings.js';
import { applicationSettingEntity } from './entities.js';
import { SETTING_NAMES, SETTINGS, type SettingDefinition, type SettingName } from './definitions.js';
import { p, type ParamRule } from '../platform/http/params.js';

/** The settings as declared parameters. */
const DOCUMENTED = Object.fromEntries(
  SETTING_NAMES.map((name: SettingName): [string, ParamRule] => {
    const kind = SETTINGS[name].kind;
    if (kind === 'boolean') return [name, p.boolean.optional()];
    if (kind === 'integer') return [name, p.integer.optional()];
    if (kind === 'visibilities' || kind === 'hosts') return [name, p.strings.optional()];
    if (kind === 'visibility') return [name, p.string.optional({ values: ['private', 'internal', 'public'] })];
    if (kind === 'choice') return [name, p.string.optional({ values: (SETTINGS[name] as SettingDefinition).choices })];
    return [name, p.string.optional()];
  }),
);

export function applicationSettingsRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'GET', url: '/application/settings', summary: 'The application settings (administrators)', tags: ['settings'],
    ability: { instance: 'admin_all_resources' },
    handler: async () => applicationSettingEntity(await readStoredSettings(deps.db, deps.config)),
  });

  apiRoute(app, deps, {
    method: 'PUT', url: '/application/settings', summary: 'Change application settings (administrators)', tags: ['settings'],
    ability: { instance: 'admin_all_resources' },
    // Declared for their types (and the OpenAPI document); parseSettingsInput then reads the whole bag:
    // legacy names, GitLab settings Kiln refuses and the model's validations need it.
    params: DOCUMENTED,
    handler: async ({ input }) => applicationSettingEntity(await updateApplicationSettings(deps, parseSettingsInput(input))),
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/metadata', summary: 'Version, revision, KAS and edition of this instance', tags: ['metadata'],
    ability: { instance: 'log_in' }, extraScopes: ['read_user'],
    handler: async () => ({
      version: GITLAB_COMPAT_VERSION,
      revision: `kiln-${KILN_VERSION}`,
      kas: { enabled: false, externalUrl: null, version: null },
      enterprise: deps.config.tier !== 'free',
    }),
  });
}
