// Resolving threads of a merge request (GitLab's Discussions::ResolveService, Notes::ResolveService,
// Discussion#can_resolve?, ResolvableNote): every resolvable note of the thread gets resolved_at and
// resolved_by; unresolving clears them. When the last unresolved thread is resolved the merge request
// gets the `resolved all threads` system note (MergeRequests::ResolvedDiscussionNotificationService),
// what unblocks `discussions_not_resolved`.
import type { Deps } from '../../platform/deps.js';
import { inTransaction, type Executor } from '../../platform/db/database.js';
import type { AuthUser } from '../../platform/auth/principal.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { canResolveNote, canResolveThread } from '../../platform/auth/policies/index.js';
import { BadRequestError, ForbiddenError, RecordNotFoundError } from '../../platform/errors.js';
import { isResolvable, type NoteRow } from '../../issues/api.js';
import type { MergeRequestRow } from '../rows.js';
import { addSystemNote } from '../system-notes.js';

const RESOLVABLE_TYPES = ['DiscussionNote', 'DiffNote'] as const;

/** Unresolved resolvable threads of a merge request. */
export async function unresolvedThreadCount(db: Executor, mergeRequestId: number): Promise<number> {
  const row = await db
    .selectFrom('notes')
    .select((eb) => eb.fn.count<number>('discussion_id').distinct().as('n'))
    .where('noteable_type', '=', 'MergeRequest')
    .where('noteable_id', '=', mergeRequestId)
    .where('type', 'in', [...RESOLVABLE_TYPES])
    .where('system', '=', 0)
    .where('resolved_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The resolvable notes of a thread resolved (or unresolved) at once; true when any changed. */
export async function setThreadResolved(trx: Executor, mr: Pick<MergeRequestRow, 'id'>, discussionId: string, resolver: { id: number; byPush?: boolean } | null, now: number): Promise<boolean> {
  const query = trx
    .updateTable('notes')
    .set(resolver ? { resolved_at: now, resolved_by_id: resolver.id, resolved_by_push: resolver.byPush ? 1 : 0 } : { resolved_at: null, resolved_by_id: null, resolved_by_push: 0 })
    .where('noteable_type', '=', 'MergeRequest')
    .where('noteable_id', '=', Number(mr.id))
    .where('discussion_id', '=', discussionId)
    .where('type', 'in', [...RESOLVABLE_TYPES])
    .where('system', '=', 0)
    .where('resolved_at', resolver ? 'is' : 'is not', null);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Resolutions of one merge request one after another: a no-op write takes its row's lock for the
 * transaction (PostgreSQL; SQLite writes one at a time anyway), so the last of two racing resolutions
 * sees the other's and notes `resolved all threads` exactly once.
 */
export async function lockMergeRequest(trx: Executor, mr: Pick<MergeRequestRow, 'id'>): Promise<void> {
  await trx.updateTable('merge_requests').set((eb) => ({ updated_at: eb.ref('updated_at') })).where('id', '=', Number(mr.id)).execute();
}

/** After a resolution: `resolved all threads` when none is left (and this call resolved the last). */
export async function noteAllResolved(trx: Executor, mr: MergeRequestRow, actorId: number, now: number): Promise<void> {
  if ((await unresolvedThreadCount(trx, Number(mr.id))) === 0) await addSystemNote(trx, mr, actorId, 'resolved all threads', now);
}

async function notesOf(trx: Executor, mr: MergeRequestRow, discussionId: string): Promise<NoteRow[]> {
  return trx.selectFrom('notes').selectAll().where('noteable_type', '=', 'MergeRequest').where('noteable_id', '=', Number(mr.id)).where('discussion_id', '=', discussionId).orderBy('id').execute();
}

/** PUT …/discussions/:discussion_id `resolved`: 403 for a thread that is not resolvable or a caller who may not. */
export async function resolveDiscussion(deps: Deps, actor: AuthUser, access: ProjectAccess, mr: MergeRequestRow, notes: NoteRow[], resolved: boolean): Promise<NoteRow[]> {
  if (!notes.some(isResolvable) || !canResolveThread(access, mr)) throw new ForbiddenError();
  const discussionId = notes[0].discussion_id!;
  const now = deps.clock.now();
  return inTransaction(deps.db, async (trx) => {
    await lockMergeRequest(trx, mr);
    const changed = await setThreadResolved(trx, mr, discussionId, resolved ? { id: actor.id } : null, now);
    if (changed && resolved) await noteAllResolved(trx, mr, actor.id, now);
    return notesOf(trx, mr, discussionId);
  });
}

/** PUT …/notes/:note_id `resolved`: one note (GitLab's resolve_note helper). */
export async function resolveNote(deps: Deps, actor: AuthUser, access: ProjectAccess, mr: MergeRequestRow, note: NoteRow, resolved: boolean): Promise<NoteRow> {
  if (!canResolveNote(access, mr, note)) throw new ForbiddenError();
  if (!isResolvable(note)) throw new BadRequestError('Note is not resolvable');
  const now = deps.clock.now();
  return inTransaction(deps.db, async (trx) => {
    await lockMergeRequest(trx, mr);
    const result = await trx
      .updateTable('notes')
      .set(resolved ? { resolved_at: now, resolved_by_id: actor.id, resolved_by_push: 0 } : { resolved_at: null, resolved_by_id: null, resolved_by_push: 0 })
      .where('id', '=', Number(note.id))
      .where('resolved_at', resolved ? 'is' : 'is not', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0 && resolved) await noteAllResolved(trx, mr, actor.id, now);
    const updated = await trx.selectFrom('notes').selectAll().where('id', '=', Number(note.id)).executeTakeFirst();
    if (!updated) throw new RecordNotFoundError();
    return updated;
  });
}
