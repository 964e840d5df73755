// The ghost user (GitLab's Users::Internal.ghost): created the first time a deleted user's
// contributions need a new author, once per instance. It has no password and cannot sign in, be
// blocked, deactivated or deleted; a username or address already taken gets a number appended.
import type { Deps } from '../platform/deps.js';
import { inTransaction, isUniqueViolation, type Executor } from '../platform/db/database.js';

const BIO = 'This is a "Ghost User", created to hold all issues authored by users that have since been deleted. This user cannot be removed.';

async function findGhost(executor: Executor): Promise<number | undefined> {
  const row = await executor.selectFrom('users').select('id').where('user_type', '=', 'ghost').orderBy('id').executeTakeFirst();
  return row ? Number(row.id) : undefined;
}

export async function ensureGhostUser(deps: Deps): Promise<number> {
  const existing = await findGhost(deps.db);
  if (existing !== undefined) return existing;
  const host = new URL(deps.config.baseUrl).hostname;
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const suffix = attempt === 0 ? '' : String(attempt);
    const username = `ghost${suffix}`;
    const email = `ghost${suffix}@${host}`;
    const now = deps.clock.now();
    try {
      return await inTransaction(deps.db, async (trx) => {
        // Another node may have made it meanwhile.
        const raced = await findGhost(trx);
        if (raced !== undefined) return raced;
        const user = await trx
          .insertInto('users')
          .values({ username, username_lower: username, name: 'Ghost User', email, email_lower: email, state: 'active', user_type: 'ghost', password_hash: null, bio: BIO, created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('namespaces')
          .values({ kind: 'user', name: username, path: username, full_path: username, full_path_lower: username, parent_id: null, owner_id: user.id, visibility: 'public', created_at: now, updated_at: now })
          .execute();
        return Number(user.id);
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const ghost = await findGhost(deps.db);
      if (ghost !== undefined) return ghost;
    }
  }
  throw new Error('no free username for the ghost user');
}
