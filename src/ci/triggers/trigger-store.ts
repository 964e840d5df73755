// Pipeline trigger tokens (GitLab's Ci::Trigger): `glptt-` tokens, stored as SHA-256 digests and shown
// whole only in the answer that made them; afterwards the API shows their first four characters
// after the prefix, which is what GitLab shows to anyone but the token's owner.
import type { Selectable } from 'kysely';
import type { Deps } from '../../platform/deps.js';
import type { CiTriggersTable } from '../../platform/db/tables/ci-settings.js';
import { NotFoundError } from '../../platform/errors.js';
import { userBasic } from '../../accounts/api.js';
import { usersById } from '../../issues/api.js';
import { newToken, tokenDigest } from '../tokens.js';
import { isoTime } from '../../platform/clock.js';

export type CiTriggerRow = Selectable<CiTriggersTable>;
export const TRIGGER_PREFIX = 'glptt-';

export function projectTriggers(deps: Deps, projectId: number) {
  return deps.db.selectFrom('ci_triggers').selectAll().where('project_id', '=', projectId);
}

export async function findTrigger(deps: Deps, projectId: number, triggerId: number): Promise<CiTriggerRow> {
  const row = await projectTriggers(deps, projectId).where('id', '=', triggerId).executeTakeFirst();
  if (!row) throw new NotFoundError('Trigger');
  return row;
}

export async function createTrigger(deps: Deps, input: { projectId: number; ownerId: number; description: string }): Promise<{ row: CiTriggerRow; token: string }> {
  const token = newToken(TRIGGER_PREFIX);
  const now = deps.clock.now();
  const row = await deps.db
    .insertInto('ci_triggers')
    .values({ project_id: input.projectId, owner_id: input.ownerId, description: input.description, token_digest: tokenDigest(token), token_start: token.slice(TRIGGER_PREFIX.length, TRIGGER_PREFIX.length + 4), last_used: null, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { row, token };
}

export async function updateTrigger(deps: Deps, row: CiTriggerRow, description: string | undefined): Promise<CiTriggerRow> {
  if (description === undefined) return row;
  return deps.db.updateTable('ci_triggers').set({ description, updated_at: deps.clock.now() }).where('id', '=', row.id).returningAll().executeTakeFirstOrThrow();
}

/** The project's trigger whose token this is, if any; its use is recorded. */
export async function useTrigger(deps: Deps, projectId: number, token: string): Promise<CiTriggerRow | undefined> {
  const row = await projectTriggers(deps, projectId).where('token_digest', '=', tokenDigest(token)).executeTakeFirst();
  if (row) await deps.db.updateTable('ci_triggers').set({ last_used: deps.clock.now() }).where('id', '=', row.id).execute();
  return row;
}

/** GitLab's Entities::Trigger; `token` is whole only when just made. */
export async function presentTriggers(deps: Deps, rows: CiTriggerRow[], fresh?: string) {
  const users = await usersById(deps.db, rows.map((row) => row.owner_id));
  return rows.map((row) => {
    const owner = row.owner_id === null ? undefined : users.get(Number(row.owner_id));
    return {
      id: Number(row.id),
      token: fresh ?? row.token_start,
      description: row.description,
      created_at: isoTime(row.created_at),
      updated_at: isoTime(row.updated_at),
      last_used: isoTime(row.last_used),
      owner: owner ? userBasic(deps.config.baseUrl, owner) : null,
    };
  });
}
