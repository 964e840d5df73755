import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import { isUniqueViolation, type Executor } from '../platform/db/database.js';
import type { EnvironmentTier } from '../platform/db/tables/environments.js';
import { ValidationError } from '../platform/errors.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import type { EnvironmentRow } from './entities.js';
import { environmentSlug } from './slug.js';
import { guessTier } from './tier.js';
import { environmentErrors, normalizeExternalUrl } from './validation.js';
import { authorizeProject } from '../platform/auth/policies/index.js';

export interface CreateEnvironmentInput {
  access: ProjectAccess;
  name: string;
  externalUrl?: string | null;
  tier?: EnvironmentTier;
}

/** Which of `name` and `slug` another environment of the project already uses (excluding `exceptId`). */
export async function takenValues(db: Executor, projectId: number, name: string, slug: string, exceptId?: number) {
  let query = db.selectFrom('environments').select(['name', 'slug']).where('project_id', '=', projectId).where((eb) => eb.or([eb('name', '=', name), eb('slug', '=', slug)]));
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  const rows = await query.execute();
  return { name: rows.some((row) => row.name === name), slug: rows.some((row) => row.slug === slug) };
}

/**
 * Create an environment in state `available` (specification, Environment states). The slug is
 * generated from the name; the tier is guessed from it when not given (GitLab's REST API documentation).
 * Uniqueness is checked for the message and held by the unique indexes when two requests race.
 */
export async function createEnvironment(deps: Deps, _actor: Principal | null, input: CreateEnvironmentInput, db: Executor = deps.db): Promise<EnvironmentRow> {
  authorizeProject(input.access, 'create_environment');
  const projectId = Number(input.access.project.id);
  const name = input.name;
  const slug = environmentSlug(name);
  const externalUrl = normalizeExternalUrl(input.externalUrl);
  const validate = async () => {
    const errors = environmentErrors({ name, slug, externalUrl }, await takenValues(db, projectId, name, slug));
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  };
  await validate();
  const now = deps.clock.now();
  try {
    return await db
      .insertInto('environments')
      .values({ project_id: projectId, name, slug, external_url: externalUrl, state: 'available', tier: input.tier ?? guessTier(name), created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await validate();
    throw error;
  }
}
