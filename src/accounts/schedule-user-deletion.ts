// DELETE /users/:id (GitLab's API and User#delete_async): the user is blocked at once and a job
// deletes them. A user who is the only Owner of a group is kept (409) unless `hard_delete` also
// deletes those groups. The ghost user is never deleted; every other user is, project bots (the users
// behind project and group access tokens) included, as GitLab's UserPolicy lets an administrator
// (`destroy_user` for any user but the ghost).
import type { Deps } from '../platform/deps.js';
import type { Principal } from '../platform/auth/principal.js';
import { inTransaction, type DbTransaction } from '../platform/db/database.js';
import { enqueue } from '../platform/jobs/queue.js';
import { ConflictError, ForbiddenError } from '../platform/errors.js';
import { ACCESS } from '../platform/auth/access-levels.js';
import type { Executor } from '../platform/db/database.js';
import type { UserRow } from './lookup.js';
import type { MemberSource } from './member-source.js';

export const DESTROY_USER_JOB = 'accounts.destroy_user';

/** Groups in which the user is the only Owner (GitLab's User#solo_owned_groups). */
export async function soloOwnedGroupIds(executor: Executor, userId: number): Promise<number[]> {
  const rows = await executor
    .selectFrom('members as m')
    .select('m.source_id')
    .where('m.user_id', '=', userId)
    .where('m.source_type', '=', 'Namespace')
    .where('m.access_level', '=', ACCESS.owner)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('members as o')
            .select('o.id')
            .whereRef('o.source_id', '=', 'm.source_id')
            .where('o.source_type', '=', 'Namespace')
            .where('o.access_level', '=', ACCESS.owner)
            .where('o.user_id', '!=', userId),
        ),
      ),
    )
    .execute();
  return rows.map((row) => Number(row.source_id));
}

export async function scheduleUserDeletion(deps: Deps, actor: Principal, user: UserRow, hardDelete: boolean): Promise<void> {
  if (user.user_type === 'ghost') throw new ForbiddenError();
  if (!hardDelete && (await soloOwnedGroupIds(deps.db, Number(user.id))).length > 0) {
    throw new ConflictError('User cannot be removed while is the sole-owner of a group');
  }
  await inTransaction(deps.db, async (trx) => {
    await trx.updateTable('users').set({ state: 'blocked', updated_at: deps.clock.now() }).where('id', '=', user.id).execute();
    await enqueue(trx, deps.clock, DESTROY_USER_JOB, { userId: Number(user.id), deletedById: actor.user.id, hardDelete });
  });
  deps.pokeWorker();
}

/**
 * A project's or group's bot users (the users behind its access tokens) go with it, as GitLab's
 * Projects::DestroyService and Groups::DestroyService delete them: blocked in the caller's transaction,
 * so their tokens stop working with the deletion, then deleted by this job as an administrator's
 * deletion of them would be (their contributions pass to the ghost user). Call it before the source's
 * memberships are deleted: they are how the bots are found.
 */
export async function scheduleBotDeletions(deps: Deps, trx: DbTransaction, source: MemberSource, actorId: number | null): Promise<void> {
  const bots = await trx
    .selectFrom('members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('u.id')
    .where('m.source_type', '=', source.type)
    .where('m.source_id', '=', source.id)
    .where('u.user_type', '=', 'project_bot')
    .execute();
  for (const bot of bots) await scheduleBotDeletion(deps, trx, Number(bot.id), actorId);
}

/**
 * One bot user blocked in the caller's transaction (its tokens stop working) and queued for deletion
 * as an administrator's deletion of it would be; false when it was blocked already (its deletion is
 * queued, or it is not to be deleted this way).
 */
export async function scheduleBotDeletion(deps: Deps, trx: DbTransaction, botId: number, actorId: number | null): Promise<boolean> {
  const blocked = await trx.updateTable('users').set({ state: 'blocked', updated_at: deps.clock.now() }).where('id', '=', botId).where('state', '!=', 'blocked').executeTakeFirst();
  if (Number(blocked.numUpdatedRows) === 0) return false;
  await enqueue(trx, deps.clock, DESTROY_USER_JOB, { userId: botId, hardDelete: false, ...(actorId === null ? {} : { deletedById: actorId }) });
  return true;
}
