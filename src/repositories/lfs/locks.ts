// The Git LFS locks API (git-lfs's docs/api/locking.md) as GitLab answers it (LfsLocksApiController):
// `<repo>.git/info/lfs/locks` to list (read access) and create, `locks/verify` to split the locks into
// the caller's and others' (git-lfs asks before a push and refuses to push others' locked files), and
// `locks/:id/unlock`, another user's lock only with `force` by a Maintainer. Creating, verifying and
// unlocking need push access. One lock per (project, path): the database refuses a second.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { isoTime } from '../../platform/clock.js';
import { canOnProject } from '../../platform/auth/policies/index.js';
import { lfsAccess, lfsError, lfsJson, type LfsContext } from './lfs-request.js';

const MAX_LIMIT = 100;
const MAX_PATH = 4096;

interface LockRow {
  id: number;
  path: string;
  created_at: number;
  user_id: number;
  owner_name: string;
}

function lockEntity(row: LockRow) {
  return { id: String(row.id), path: row.path, locked_at: isoTime(row.created_at), owner: { name: row.owner_name } };
}

function locksQuery(deps: Deps, projectId: number) {
  return deps.db
    .selectFrom('lfs_file_locks')
    .innerJoin('users', 'users.id', 'lfs_file_locks.user_id')
    .select(['lfs_file_locks.id', 'lfs_file_locks.path', 'lfs_file_locks.created_at', 'lfs_file_locks.user_id', 'users.name as owner_name'])
    .where('lfs_file_locks.project_id', '=', projectId);
}

function bodyOf(request: FastifyRequest): Record<string, unknown> {
  const body: unknown = request.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** `limit` and `cursor` (a lock id) from the query or the body: one page of locks by id. */
function pageOf(source: Record<string, unknown>): { limit: number; cursor: number } {
  const limit = Number(source.limit);
  const cursor = Number(source.cursor);
  return { limit: Number.isSafeInteger(limit) && limit > 0 ? Math.min(limit, MAX_LIMIT) : MAX_LIMIT, cursor: Number.isSafeInteger(cursor) && cursor > 0 ? cursor : 0 };
}

async function page(deps: Deps, context: LfsContext, source: Record<string, unknown>, filter?: { path?: string; id?: number }) {
  const { limit, cursor } = pageOf(source);
  let query = locksQuery(deps, Number(context.target.project.id)).where('lfs_file_locks.id', '>=', cursor);
  if (filter?.path !== undefined) query = query.where('lfs_file_locks.path', '=', filter.path);
  if (filter?.id !== undefined) query = query.where('lfs_file_locks.id', '=', filter.id);
  const rows = (await query.orderBy('lfs_file_locks.id').limit(limit + 1).execute()) as LockRow[];
  const more = rows.length > limit;
  const shown = rows.slice(0, limit);
  return { rows: shown, next: more ? String(rows[limit].id) : null };
}

export async function listLocks(deps: Deps, request: FastifyRequest, reply: FastifyReply, path: string): Promise<FastifyReply> {
  const context = await lfsAccess(deps, request, reply, path, false);
  if (!context) return reply;
  const query = request.query as Record<string, unknown>;
  const id = query.id === undefined ? undefined : Number(query.id);
  if (id !== undefined && !Number.isSafeInteger(id)) return lfsJson(reply, 200, { locks: [] });
  const { rows, next } = await page(deps, context, query, { path: typeof query.path === 'string' && query.path !== '' ? query.path : undefined, id });
  return lfsJson(reply, 200, { locks: rows.map(lockEntity), ...(next ? { next_cursor: next } : {}) });
}

export async function createLock(deps: Deps, request: FastifyRequest, reply: FastifyReply, path: string): Promise<FastifyReply> {
  const context = await lfsAccess(deps, request, reply, path, true);
  if (!context) return reply;
  if (context.actor.kind !== 'user') return lfsError(deps, reply, 403, 'You have no permissions');
  const lockPath = bodyOf(request).path;
  if (typeof lockPath !== 'string' || lockPath === '' || lockPath.length > MAX_PATH) return lfsError(deps, reply, 422, 'path is missing or invalid');
  const projectId = Number(context.target.project.id);
  const inserted = await deps.db
    .insertInto('lfs_file_locks')
    .values({ project_id: projectId, user_id: context.actor.user.id, path: lockPath, created_at: deps.clock.now() })
    .onConflict((conflict) => conflict.columns(['project_id', 'path']).doNothing())
    .returning('id')
    .executeTakeFirst();
  const row = (await locksQuery(deps, projectId).where('lfs_file_locks.path', '=', lockPath).executeTakeFirst()) as LockRow | undefined;
  if (!row) return lfsError(deps, reply, 409, 'already locked');
  if (!inserted) return lfsJson(reply, 409, { lock: lockEntity(row), message: 'already locked', documentation_url: `${deps.config.baseUrl}/help` });
  return lfsJson(reply, 201, { lock: lockEntity(row) });
}

export async function verifyLocks(deps: Deps, request: FastifyRequest, reply: FastifyReply, path: string): Promise<FastifyReply> {
  const context = await lfsAccess(deps, request, reply, path, true);
  if (!context) return reply;
  const { rows, next } = await page(deps, context, bodyOf(request));
  const userId = context.actor.kind === 'user' ? context.actor.user.id : null;
  return lfsJson(reply, 200, {
    ours: rows.filter((row) => Number(row.user_id) === userId).map(lockEntity),
    theirs: rows.filter((row) => Number(row.user_id) !== userId).map(lockEntity),
    ...(next ? { next_cursor: next } : {}),
  });
}

export async function unlock(deps: Deps, request: FastifyRequest, reply: FastifyReply, path: string, idText: string): Promise<FastifyReply> {
  const context = await lfsAccess(deps, request, reply, path, true);
  if (!context) return reply;
  if (context.actor.kind !== 'user') return lfsError(deps, reply, 403, 'You have no permissions');
  const projectId = Number(context.target.project.id);
  const id = Number(idText);
  const row = (Number.isSafeInteger(id) ? await locksQuery(deps, projectId).where('lfs_file_locks.id', '=', id).executeTakeFirst() : undefined) as LockRow | undefined;
  if (!row) return lfsError(deps, reply, 404, 'Lock not found');
  if (Number(row.user_id) !== context.actor.user.id) {
    if (bodyOf(request).force !== true) return lfsError(deps, reply, 403, `${row.path} is locked by GitLab User ${row.user_id}`);
    if (!canOnProject(context.target.subject, 'admin_project')) return lfsError(deps, reply, 403, 'You must have maintainer access to force delete a lock');
  }
  await deps.db.deleteFrom('lfs_file_locks').where('id', '=', row.id).where('project_id', '=', projectId).execute();
  return lfsJson(reply, 200, { lock: lockEntity(row) });
}
