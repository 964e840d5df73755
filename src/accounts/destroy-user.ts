// The job behind DELETE /users/:id (GitLab's Users::DestroyService and MigrateRecordsToGhostUserService):
// the user's issues, comments and label events pass to the ghost user — or, with `hard_delete`, are
// deleted along with the groups only they own; their events, assignments, personal projects and
// namespace go; memberships, tokens, sessions, e-mails and stars follow by cascade. GitLab nullifies
// what it does not migrate (issues' closed_by, projects' creator). Idempotent: a user already gone is done.
import type { Deps } from '../platform/deps.js';
import { inTransaction, type Executor } from '../platform/db/database.js';
import { ensureGhostUser } from './ensure-ghost-user.js';
import { deleteProjectRows } from './delete-project.js';
import { destroyGroupTree } from './destroy-group.js';
import { forgetRedirects } from './forget-redirects.js';
import { soloOwnedGroupIds } from './schedule-user-deletion.js';
import { publishUserEvent } from './system-events.js';
import { removeAvatar } from './remove-avatar.js';

export interface DestroyUserPayload {
  userId: number;
  hardDelete: boolean;
  /** The administrator who asked (absent in jobs queued before it was recorded). */
  deletedById?: number;
}

async function migrateToGhost(trx: Executor, userId: number, ghostId: number): Promise<void> {
  await trx.updateTable('issues').set({ author_id: ghostId }).where('author_id', '=', userId).execute();
  await trx.updateTable('notes').set({ author_id: ghostId }).where('author_id', '=', userId).execute();
  for (const table of ['resource_label_events', 'resource_state_events', 'resource_milestone_events'] as const) {
    await trx.updateTable(table).set({ user_id: ghostId }).where('user_id', '=', userId).execute();
  }
  // Snippets pass to the ghost user too (with hard_delete they go by cascade).
  await trx.updateTable('snippets').set({ author_id: ghostId }).where('author_id', '=', userId).execute();
}

async function deleteContributions(trx: Executor, userId: number): Promise<void> {
  const authored = trx.selectFrom('issues').select('id').where('author_id', '=', userId);
  await trx.deleteFrom('notes').where('noteable_type', '=', 'Issue').where('noteable_id', 'in', authored).execute();
  await trx.deleteFrom('notes').where('author_id', '=', userId).execute();
  for (const table of ['resource_label_events', 'resource_state_events', 'resource_milestone_events'] as const) {
    await trx.deleteFrom(table).where('user_id', '=', userId).execute();
  }
  await trx.deleteFrom('issues').where('author_id', '=', userId).execute();
}

export async function destroyUser(deps: Deps, payload: DestroyUserPayload): Promise<void> {
  const userId = Number(payload.userId);
  const actorId = payload.deletedById === undefined ? null : Number(payload.deletedById);
  const user = await deps.db.selectFrom('users').select(['id', 'user_type']).where('id', '=', userId).executeTakeFirst();
  if (!user || user.user_type === 'ghost') return;
  if (payload.hardDelete) {
    for (const groupId of await soloOwnedGroupIds(deps.db, userId)) await destroyGroupTree(deps, groupId, actorId);
  }
  const ghostId = payload.hardDelete ? null : await ensureGhostUser(deps);
  await inTransaction(deps.db, async (trx) => {
    if (ghostId === null) await deleteContributions(trx, userId);
    else await migrateToGhost(trx, userId, ghostId);
    await trx.updateTable('issues').set({ closed_by_id: null }).where('closed_by_id', '=', userId).execute();
    await trx.updateTable('projects').set({ creator_id: null }).where('creator_id', '=', userId).execute();
    await trx.deleteFrom('events').where('author_id', '=', userId).execute();
    const personal = await trx.selectFrom('namespaces').select('id').where('kind', '=', 'user').where('owner_id', '=', userId).execute();
    for (const namespace of personal) {
      const projects = await trx.selectFrom('projects').select('id').where('namespace_id', '=', namespace.id).execute();
      for (const project of projects) await deleteProjectRows(deps, trx, Number(project.id), actorId);
      await forgetRedirects(trx, { type: 'Namespace', id: Number(namespace.id) });
      await trx.deleteFrom('namespaces').where('id', '=', namespace.id).execute();
    }
    // System hooks' user_destroy, while the user can still be read.
    await publishUserEvent(deps, trx, 'user.destroyed', userId, actorId);
    await removeAvatar(trx, 'User', userId);
    await trx.deleteFrom('users').where('id', '=', userId).execute();
  });
  deps.log.info({ userId, hardDelete: payload.hardDelete }, 'user deleted');
}

export async function destroyUserJob(deps: Deps, payload: DestroyUserPayload): Promise<void> {
  await destroyUser(deps, payload);
}
