// The resource group a new job needs (GitLab's Seed::Processable::ResourceGroup): its `resource_group`
// key with the job's known variables expanded, found in the project or made there on first use with
// its one resource. A key that is not a valid resource group key once expanded (GitLab's validation of
// Ci::ResourceGroup#key) gives the job no group, as GitLab seeds it: the job then runs like any other.
import type { Deps } from '../../platform/deps.js';
import type { DbTransaction } from '../../platform/db/database.js';
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { projectResourceGroupDefaultProcessMode } from '../../accounts/api.js';
import { ciSlug, expandVariables } from '../variables.js';

/** GitLab's environment name format, which a resource group key follows. */
const KEY_FORMAT = /^[a-zA-Z0-9_${}. -]([a-zA-Z0-9_/${}. -]*[a-zA-Z0-9_${}. -])?$/;
export const KEY_FORMAT_MESSAGE = "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'";
const KEY_MAX = 255;

/** The expanded key, or null when it is not a valid key (KEY_FORMAT_MESSAGE, at most 255 characters). */
export function resourceGroupKey(key: string, variables: Record<string, string>): string | null {
  const expanded = expandVariables(key, variables);
  return expanded.length <= KEY_MAX && KEY_FORMAT.test(expanded) ? expanded : null;
}

/**
 * The id of the project's group `key`, made (with its resource) when it is not there. Two pipelines
 * making the same group at once: the unique index lets one insert, the other reads its row.
 */
export async function resourceGroupFor(trx: DbTransaction, deps: Deps, project: ProjectRow, key: string): Promise<number> {
  const projectId = Number(project.id);
  const now = deps.clock.now();
  const made = await trx
    .insertInto('ci_resource_groups')
    .values({ project_id: projectId, key, process_mode: projectResourceGroupDefaultProcessMode(project), created_at: now, updated_at: now })
    .onConflict((conflict) => conflict.columns(['project_id', 'key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (made) {
    await trx.insertInto('ci_resources').values({ resource_group_id: made.id, build_id: null, created_at: now, updated_at: now }).execute();
    return Number(made.id);
  }
  const found = await trx.selectFrom('ci_resource_groups').select('id').where('project_id', '=', projectId).where('key', '=', key).executeTakeFirstOrThrow();
  return Number(found.id);
}

/**
 * The group of a job being created, null without `resource_group` (or with a key that is not valid
 * once expanded). `known` are the variables the pipeline knows for the job (pipeline, file, job);
 * GitLab's job-level predefined variables the key may name are added: the job's name and stage and
 * its environment's name and slug.
 */
export async function jobResourceGroup(
  trx: DbTransaction, deps: Deps, project: ProjectRow,
  job: { name: string; stage: string; resourceGroup: string | null; environmentName: string | null }, known: Record<string, string>,
): Promise<number | null> {
  if (!job.resourceGroup) return null;
  const key = resourceGroupKey(job.resourceGroup, {
    ...known, CI_JOB_NAME: job.name, CI_JOB_STAGE: job.stage,
    ...(job.environmentName ? { CI_ENVIRONMENT_NAME: job.environmentName, CI_ENVIRONMENT_SLUG: ciSlug(job.environmentName) } : {}),
  });
  return key === null ? null : resourceGroupFor(trx, deps, project, key);
}
