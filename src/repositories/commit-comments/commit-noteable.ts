// A commit as a kind of noteable (issues/noteable-kind.ts), so that its comments and threads are the
// notes machinery's, not a second implementation: named by a sha or any revision that resolves to a
// commit, keyed by a commit_noteables row made on its first comment, read by whoever reads the code,
// commented on by whoever may also comment (create_note). Nothing is resolvable.
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import type { AuthUser } from '../../platform/auth/principal.js';
import { inTransaction, type Executor } from '../../platform/db/database.js';
import { canOnProject } from '../../platform/auth/policies/policy.js';
import { ForbiddenError } from '../../platform/errors.js';
import { createNote, discussionEntity, noteEntity, noteUserIds, usersById, type Noteable, type NoteableKind, type NotePresenter, type NoteRow } from '../../issues/api.js';
import { findProjectCommit, type FoundCommit } from '../repository-api/commits-finder.js';

export type CommitNoteable = Noteable & { sha: string; found: FoundCommit };

/** The row its notes are keyed by, made once per project and sha (the unique constraint decides a race). */
export async function ensureCommitNoteable(db: Executor, projectId: number, sha: string, now: number): Promise<number> {
  await db
    .insertInto('commit_noteables')
    .values({ project_id: projectId, commit_sha: sha, created_at: now })
    .onConflict((conflict) => conflict.columns(['project_id', 'commit_sha']).doNothing())
    .execute();
  const row = await db.selectFrom('commit_noteables').select('id').where('project_id', '=', projectId).where('commit_sha', '=', sha).executeTakeFirstOrThrow();
  return Number(row.id);
}

/** The commit the caller names, with its notes' key: 0 (no notes) until it is first commented on. */
export async function findCommitNoteable(deps: Deps, access: ProjectAccess, revision: string): Promise<CommitNoteable> {
  if (!canOnProject(access, 'download_code')) throw new ForbiddenError();
  const found = await findProjectCommit(deps, access, revision);
  const { commit } = found;
  const projectId = Number(access.project.id);
  const row = await deps.db.selectFrom('commit_noteables').select('id').where('project_id', '=', projectId).where('commit_sha', '=', commit.id).executeTakeFirst();
  return { type: 'Commit', id: row ? Number(row.id) : 0, projectId, iid: 0, commitId: commit.id, sha: commit.id, found };
}

/** Comment on the commit, creating its key first; `extra` writes more of the note in the same transaction. */
export async function commentOnCommit(
  deps: Deps,
  author: AuthUser,
  noteable: CommitNoteable,
  body: string,
  options: { thread?: boolean; createdAt?: number; extra?: (trx: Executor, note: NoteRow) => Promise<NoteRow> } = {},
): Promise<NoteRow> {
  return inTransaction(deps.db, async (trx) => {
    const id = await ensureCommitNoteable(trx, noteable.projectId, noteable.sha, deps.clock.now());
    const note = await createNote(deps, author.id, { ...noteable, id }, body, { thread: options.thread, createdAt: options.createdAt }, trx);
    return options.extra ? options.extra(trx, note) : note;
  });
}

/** GitLab's note entity of a commit's note: no noteable id or iid, the commit's sha instead. */
export async function presentCommitNotes(deps: Deps, noteable: CommitNoteable, notes: NoteRow[]): Promise<NotePresenter> {
  const users = await usersById(deps.db, noteUserIds(notes));
  const baseUrl = deps.config.baseUrl;
  const note = (row: NoteRow) => ({ ...noteEntity(baseUrl, row, users, null), noteable_id: null, commit_id: noteable.sha });
  return {
    note,
    discussion: (id, rows) => ({ ...discussionEntity(baseUrl, id, rows, users, 0), notes: rows.map(note) }),
  };
}

export const commitNoteableKind: NoteableKind<CommitNoteable, string> = {
  resource: 'repository/commits',
  iidParam: 'commit_id',
  keyType: 'string',
  name: 'a commit',
  abilities: { read: 'download_code', create: 'create_note' },
  find: findCommitNoteable,
  canComment: (access) => canOnProject(access, 'download_code') && canOnProject(access, 'create_note'),
  present: presentCommitNotes,
  // Diff positions on a commit's threads are not taken yet: refused by name rather than dropped.
  unsupported: { note: [], thread: ['position'] },
  thread: {
    params: {},
    start: (deps, actor, noteable, body, _input, createdAt) => commentOnCommit(deps, actor, noteable, body, { thread: true, createdAt }),
  },
};
