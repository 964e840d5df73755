// The job behind DELETE /groups/:id: the group, its subgroups (deepest first) and every project in
// them. One transaction per namespace, so a large tree makes progress and a crash resumes where it
// stopped: the job is retried, and what is already gone is simply not found again.
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import { deleteProjectRows } from './delete-project.js';
import { forgetRedirects } from './forget-redirects.js';
import { removeAvatar } from './remove-avatar.js';
import { descendantPaths } from './rename-queries.js';
import { groupSnapshot } from './system-events.js';
import { scheduleBotDeletions } from './schedule-user-deletion.js';

/** Delete one namespace that has no subgroups left, with its projects (each told to system hooks before it goes) and its bot users. */
async function destroyNamespace(deps: Deps, namespaceId: number, actorId: number | null): Promise<void> {
  await inTransaction(deps.db, async (trx) => {
    const projects = await trx.selectFrom('projects').select('id').where('namespace_id', '=', namespaceId).execute();
    for (const project of projects) await deleteProjectRows(deps, trx, Number(project.id), actorId);
    const group = await trx.selectFrom('namespaces').selectAll().where('id', '=', namespaceId).executeTakeFirst();
    if (group) await deps.domainEvents.publish(trx, { kind: 'group.destroyed', actorId, group: groupSnapshot(group) });
    await scheduleBotDeletions(deps, trx, { type: 'Namespace', id: namespaceId }, actorId);
    await trx.deleteFrom('members').where('source_type', '=', 'Namespace').where('source_id', '=', namespaceId).execute();
    await trx.deleteFrom('access_requests').where('source_type', '=', 'Namespace').where('source_id', '=', namespaceId).execute();
    await forgetRedirects(trx, { type: 'Namespace', id: namespaceId });
    await removeAvatar(trx, 'Namespace', namespaceId);
    await trx.deleteFrom('namespaces').where('id', '=', namespaceId).execute();
  });
}

/** The group and everything below it, deepest namespaces first. */
export async function destroyGroupTree(deps: Deps, groupId: number, actorId: number | null): Promise<void> {
  const group = await deps.db.selectFrom('namespaces').select(['id', 'full_path']).where('id', '=', groupId).where('kind', '=', 'group').executeTakeFirst();
  if (!group) return;
  const subgroups = (await descendantPaths(deps.db, group.full_path)).filter((path) => path.source_type === 'Namespace');
  subgroups.sort((a, b) => b.full_path.split('/').length - a.full_path.split('/').length);
  for (const subgroup of subgroups) await destroyNamespace(deps, subgroup.source_id, actorId);
  await destroyNamespace(deps, groupId, actorId);
}

export async function destroyGroupJob(deps: Deps, payload: { groupId: number; userId?: number }): Promise<void> {
  await destroyGroupTree(deps, Number(payload.groupId), payload.userId === undefined ? null : Number(payload.userId));
  deps.log.info({ groupId: payload.groupId }, 'group deleted');
}
