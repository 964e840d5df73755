// The job token's inbound scope of a project (GitLab's Ci::JobToken::Scope, inbound direction): the
// limit (on without a settings row) and the allowlists of projects, and of groups, whose jobs'
// tokens may reach it.
import type { Executor } from '../../platform/db/database.js';
import { groupAndAncestorIds } from '../../labels/api.js';

export async function inboundEnabled(db: Executor, projectId: number): Promise<boolean> {
  const row = await db.selectFrom('ci_job_token_settings').select('inbound_enabled').where('project_id', '=', projectId).executeTakeFirst();
  return row ? Number(row.inbound_enabled) === 1 : true;
}

export async function setInboundEnabled(db: Executor, projectId: number, enabled: boolean, now: number): Promise<void> {
  await db.insertInto('ci_job_token_settings').values({ project_id: projectId, inbound_enabled: enabled ? 1 : 0, updated_at: now })
    .onConflict((oc) => oc.column('project_id').doUpdateSet({ inbound_enabled: enabled ? 1 : 0, updated_at: now }))
    .execute();
}

export function allowlistQuery(db: Executor, projectId: number) {
  return db.selectFrom('ci_job_token_project_scope_links as l').innerJoin('projects as p', 'p.id', 'l.target_project_id')
    .selectAll('p').where('l.source_project_id', '=', projectId).orderBy('l.target_project_id');
}

/** Adds `targetId` to `projectId`'s allowlist; false when it was there already. */
export async function addToAllowlist(db: Executor, projectId: number, targetId: number, userId: number, now: number): Promise<boolean> {
  const added = await db.insertInto('ci_job_token_project_scope_links')
    .values({ source_project_id: projectId, target_project_id: targetId, added_by_id: userId, created_at: now })
    .onConflict((oc) => oc.columns(['source_project_id', 'target_project_id']).doNothing())
    .executeTakeFirst();
  return Number(added.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function removeFromAllowlist(db: Executor, projectId: number, targetId: number): Promise<boolean> {
  const removed = await db.deleteFrom('ci_job_token_project_scope_links').where('source_project_id', '=', projectId).where('target_project_id', '=', targetId).executeTakeFirst();
  return Number(removed.numDeletedRows) > 0;
}

export function groupsAllowlistQuery(db: Executor, projectId: number) {
  return db.selectFrom('ci_job_token_group_scope_links as l').innerJoin('namespaces as n', 'n.id', 'l.target_group_id')
    .selectAll('n').where('l.source_project_id', '=', projectId).orderBy('l.target_group_id');
}

/** Adds `groupId` to `projectId`'s group allowlist; false when it was there already. */
export async function addGroupToAllowlist(db: Executor, projectId: number, groupId: number, userId: number, now: number): Promise<boolean> {
  const added = await db.insertInto('ci_job_token_group_scope_links')
    .values({ source_project_id: projectId, target_group_id: groupId, added_by_id: userId, created_at: now })
    .onConflict((oc) => oc.columns(['source_project_id', 'target_group_id']).doNothing())
    .executeTakeFirst();
  return Number(added.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function removeGroupFromAllowlist(db: Executor, projectId: number, groupId: number): Promise<boolean> {
  const removed = await db.deleteFrom('ci_job_token_group_scope_links').where('source_project_id', '=', projectId).where('target_group_id', '=', groupId).executeTakeFirst();
  return Number(removed.numDeletedRows) > 0;
}

/**
 * Whether a job of `jobProjectId` may reach `targetProjectId` with its token: its own project, a
 * target without the limit, one that allows the job's project, or one that allows a group the job's
 * project is in (directly or through a subgroup).
 */
export async function jobTokenReaches(db: Executor, jobProjectId: number, targetProjectId: number): Promise<boolean> {
  if (jobProjectId === targetProjectId || !(await inboundEnabled(db, targetProjectId))) return true;
  const link = await db.selectFrom('ci_job_token_project_scope_links').select('target_project_id')
    .where('source_project_id', '=', targetProjectId).where('target_project_id', '=', jobProjectId).executeTakeFirst();
  if (link) return true;
  const groups = await db.selectFrom('ci_job_token_group_scope_links').select('target_group_id').where('source_project_id', '=', targetProjectId).execute();
  if (groups.length === 0) return false;
  const jobProject = await db.selectFrom('projects').select('namespace_id').where('id', '=', jobProjectId).executeTakeFirst();
  if (!jobProject) return false;
  const ancestors = new Set(await groupAndAncestorIds(db, Number(jobProject.namespace_id)));
  return groups.some((group) => ancestors.has(Number(group.target_group_id)));
}
