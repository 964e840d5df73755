import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import { isUniqueViolation } from '../platform/db/database.js';
import type { EnvironmentTier } from '../platform/db/tables/environments.js';
import { RecordNotFoundError, ValidationError } from '../platform/errors.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import type { EnvironmentRow } from './entities.js';
import { findEnvironment } from './finder.js';
import { takenValues } from './create-environment.js';
import { environmentErrors, normalizeExternalUrl } from './validation.js';
import { authorizeProject } from '../platform/auth/policies/index.js';

export interface UpdateEnvironmentInput {
  access: ProjectAccess;
  environmentId: number;
  /** Each field changes only when given; `externalUrl: ''` clears the URL (GitLab's REST API documentation). */
  name?: string;
  externalUrl?: string | null;
  tier?: EnvironmentTier;
}

/** Rename an environment or change its URL or tier. The slug never changes (GitLab keeps it on rename). */
export async function updateEnvironment(deps: Deps, _actor: Principal, input: UpdateEnvironmentInput): Promise<EnvironmentRow> {
  authorizeProject(input.access, 'update_environment');
  const projectId = Number(input.access.project.id);
  const env = await findEnvironment(deps.db, projectId, input.environmentId);
  const name = input.name ?? env.name;
  const externalUrl = input.externalUrl === undefined ? env.external_url : normalizeExternalUrl(input.externalUrl);
  const tier = input.tier ?? env.tier;
  if (name === env.name && externalUrl === env.external_url && tier === env.tier) return env;

  const validate = async () => {
    const taken = name === env.name ? { name: false, slug: false } : await takenValues(deps.db, projectId, name, env.slug, Number(env.id));
    const errors = environmentErrors({ name, slug: env.slug, externalUrl }, { name: taken.name, slug: false });
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  };
  await validate();
  try {
    const updated = await deps.db
      .updateTable('environments')
      .set({ name, external_url: externalUrl, tier, updated_at: deps.clock.now() })
      .where('id', '=', env.id)
      .returningAll()
      .executeTakeFirst();
    if (!updated) throw new RecordNotFoundError();
    return updated;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await validate();
    throw error;
  }
}
