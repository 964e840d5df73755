// A project's resource groups as the API reads and changes them (GitLab's Ci::ResourceGroup through
// lib/api/ci/resource_groups.rb): found by key, their upcoming jobs, their process mode.
import type { Selectable } from 'kysely';
import type { Deps } from '../../platform/deps.js';
import type { CiResourceGroupsTable } from '../../platform/db/tables/ci.js';
import { RecordNotFoundError } from '../../platform/errors.js';
import { isoTime } from '../../platform/clock.js';
import { upcomingJobs } from './assign-resource.js';

export type ResourceGroupRow = Selectable<CiResourceGroupsTable>;
export const PROCESS_MODES = ['unordered', 'oldest_first', 'newest_first', 'newest_ready_first'] as const;

export function projectResourceGroups(deps: Deps, projectId: number) {
  return deps.db.selectFrom('ci_resource_groups').selectAll().where('project_id', '=', projectId).orderBy('id');
}

/** The project's group `key`; GitLab's find_by_key! answers `404 Not found` without one. */
export async function findResourceGroup(deps: Deps, projectId: number, key: string): Promise<ResourceGroupRow> {
  const row = await deps.db.selectFrom('ci_resource_groups').selectAll().where('project_id', '=', projectId).where('key', '=', key).executeTakeFirst();
  if (!row) throw new RecordNotFoundError();
  return row;
}

/** The group's jobs still to get its resource, in the order they will (the mode's). */
export function upcomingJobsOf(deps: Deps, group: ResourceGroupRow) {
  return upcomingJobs(deps.db, { id: Number(group.id), process_mode: group.process_mode }).selectAll();
}

/** The job holding the group's resource, if any (GitLab's current_processable). */
export async function currentJobOf(deps: Deps, group: ResourceGroupRow) {
  return deps.db.selectFrom('ci_builds').selectAll().where('id', 'in', deps.db.selectFrom('ci_resources').select('build_id').where('resource_group_id', '=', group.id).where('build_id', 'is not', null)).executeTakeFirst();
}

/** GitLab's ResourceGroup entity. */
export function resourceGroupEntity(group: ResourceGroupRow) {
  return { id: Number(group.id), key: group.key, process_mode: group.process_mode, created_at: isoTime(group.created_at), updated_at: isoTime(group.updated_at) };
}
