// POST /projects/:id/share (GitLab's Projects::GroupLinks::CreateService): invite a group to a project.
// The caller administers the project (the route's admin_project) and must be able to read the group
// (else 404). Refused while the project's group or a group above it has share_with_group_lock (400,
// GitLab's sentence), and for the group the project is in or one above it (409, as GitLab's
// ProjectGroupLink validation); one link per pair (409).
//
// The project row's has_group_links says whether it may have links (GET /projects/:id reads them only
// then): both actions keep it in the link's own transaction. A 0 beside a link would hide the link, so
// on PostgreSQL each transaction first locks the project row: an unshare's "none remain" then sees any
// share that came first, and a share that comes after sets the flag again. SQLite runs one write
// transaction at a time.
import { inTransaction, isUniqueViolation, type DbTransaction } from '../platform/db/database.js';
import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { ConflictError, NotFoundError, StatusError } from '../platform/errors.js';
import { findGroup } from './lookup.js';
import { validateGroupAccess } from './group-links.js';
import type { ShareInput } from './share-group.js';
import { projectChainGroups } from './project-groups-queries.js';
import { shownSettings } from './stored-settings.js';
import { GROUP_SETTING_ALIASES, GROUP_STORED_SETTINGS } from './settings-tables.js';

export interface ProjectGroupLink {
  id: number;
  project_id: number;
  group_id: number;
  group_access: number;
  expires_at: string | null;
}

export async function shareProject(deps: Deps, principal: Principal, access: ProjectAccess, input: ShareInput): Promise<ProjectGroupLink> {
  validateGroupAccess(input.groupAccess);
  const chain = await projectChainGroups(deps.db, access.project).execute();
  if (chain.some((group) => shownSettings(GROUP_STORED_SETTINGS, GROUP_SETTING_ALIASES, group.settings).share_with_group_lock === true)) {
    throw new StatusError(400, 'The project sharing with group is disabled');
  }
  const invited = (await findGroup(deps, principal, input.groupId)).group;
  if (chain.some((group) => Number(group.id) === Number(invited.id))) {
    throw new ConflictError('Project cannot be shared with the group it is in or one of its ancestors.');
  }
  const projectId = Number(access.project.id);
  try {
    const link = await inTransaction(deps.db, async (trx) => {
      await lockProject(deps, trx, projectId);
      const inserted = await trx.insertInto('project_group_links').values({
        project_id: projectId,
        group_id: Number(invited.id),
        group_access: input.groupAccess,
        expires_at: input.expiresAt ?? null,
        created_at: deps.clock.now(),
      }).returning(['id', 'project_id', 'group_id', 'group_access', 'expires_at']).executeTakeFirstOrThrow();
      // Written only when it changes: every update moves the project's version (its kept entity).
      await trx.updateTable('projects').set({ has_group_links: 1 }).where('id', '=', projectId).where('has_group_links', '=', 0).execute();
      return inserted;
    });
    return { id: Number(link.id), project_id: Number(link.project_id), group_id: Number(link.group_id), group_access: Number(link.group_access), expires_at: link.expires_at };
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError('Group already shared with this group');
    throw error;
  }
}

/** DELETE /projects/:id/share/:group_id ("404 Group Link Not Found" when there is none). */
export async function unshareProject(deps: Deps, access: ProjectAccess, groupId: number): Promise<void> {
  const projectId = Number(access.project.id);
  await inTransaction(deps.db, async (trx) => {
    await lockProject(deps, trx, projectId);
    const removed = await trx.deleteFrom('project_group_links').where('project_id', '=', projectId).where('group_id', '=', groupId).executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0) throw new NotFoundError('Group Link');
    await trx.updateTable('projects').set({ has_group_links: 0 }).where('id', '=', projectId).where('has_group_links', '<>', 0)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('project_group_links').select('id').where('project_id', '=', projectId))))
      .execute();
  });
}

/** The project row locked until the transaction ends (PostgreSQL; SQLite's writes are one at a time). */
async function lockProject(deps: Deps, trx: DbTransaction, projectId: number): Promise<void> {
  if (deps.dialect === 'postgres') await trx.selectFrom('projects').select('id').where('id', '=', projectId).forUpdate().execute();
}
