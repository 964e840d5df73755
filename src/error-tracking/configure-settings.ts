import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import { ValidationError } from '../platform/errors.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import type { SettingsRow } from './entities.js';
import { authorizeProject } from '../platform/auth/policies/index.js';
import { findSettings } from './finder.js';
import { settingsErrors } from './validation.js';

export interface ConfigureSettingsInput {
  access: ProjectAccess;
  active: boolean;
  integrated?: boolean;
  /** Omitted: unchanged; blank: removed. */
  apiUrl?: string | null;
  /** Omitted or blank: the stored token is kept (the page never shows it back); `null` removes it. */
  token?: string | null;
  projectName?: string | null;
}

function blankToNull(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/**
 * Create or change a project's error tracking settings: what GitLab's Settings > Monitor > Error
 * tracking form does (Projects::Operations::UpdateService), shared by the settings page and
 * `PUT …/error_tracking/settings`. The token is stored sealed with the instance key.
 */
export async function configureErrorTracking(deps: Deps, _actor: Principal, input: ConfigureSettingsInput): Promise<SettingsRow> {
  // GitLab's admin_operations: Maintainer or higher (specification, Authentication 3).
  authorizeProject(input.access, 'admin_operations');
  const projectId = Number(input.access.project.id);
  const existing = await findSettings(deps.db, projectId);
  const apiUrl = input.apiUrl === undefined ? (existing?.api_url ?? null) : (blankToNull(input.apiUrl) ?? null);
  const newToken = blankToNull(input.token);
  const tokenSealed = input.token === null ? null : newToken ? deps.box.seal(newToken) : (existing?.token_sealed ?? null);
  const projectName = input.projectName === undefined ? (existing?.project_name ?? null) : (blankToNull(input.projectName) ?? null);
  const integrated = input.integrated ?? existing?.integrated === 1;

  const errors = settingsErrors({ enabled: input.active, integrated, apiUrl, hasToken: tokenSealed !== null });
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);

  const now = deps.clock.now();
  const values = { enabled: input.active ? 1 : 0, integrated: integrated ? 1 : 0, api_url: apiUrl, project_name: projectName, token_sealed: tokenSealed, updated_at: now };
  return deps.db
    .insertInto('error_tracking_settings')
    .values({ project_id: projectId, organization_name: null, created_at: now, ...values })
    .onConflict((conflict) => conflict.column('project_id').doUpdateSet(values))
    .returningAll()
    .executeTakeFirstOrThrow();
}
