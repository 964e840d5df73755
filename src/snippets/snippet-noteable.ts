// A project snippet as a kind of noteable (issues/noteable-kind.ts): its comments are the notes
// machinery's (`/projects/:id/snippets/:snippet_id/notes` and `…/discussions`, as GitLab has them),
// read by whoever reads the snippet (a snippet one may not read is 404), written by whoever of them may
// comment on the project (create_note). Personal snippets have no notes API in GitLab.
import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { canOnProject } from '../platform/auth/policies/index.js';
import { NotFoundError } from '../platform/errors.js';
import { discussionEntity, noteEntity, noteUserIds, usersById, type Noteable, type NoteableKind, type NotePresenter, type NoteRow } from '../issues/api.js';
import { findProjectSnippet } from './finder.js';
import { authorizeSnippets, canReadSnippet } from './snippet-policy.js';

export type SnippetNoteable = Noteable & { type: 'Snippet' };

export async function findSnippetNoteable(deps: Deps, access: ProjectAccess, id: number): Promise<SnippetNoteable> {
  authorizeSnippets(access, 'read_snippet');
  const snippet = await findProjectSnippet(deps.db, Number(access.project.id), id);
  if (!canReadSnippet(access.user, snippet, access)) throw new NotFoundError('Snippet');
  return { type: 'Snippet', id: Number(snippet.id), projectId: Number(access.project.id), iid: 0 };
}

/** GitLab's note entity of a snippet's note: noteable_id the snippet's id, no iid. */
async function presentSnippetNotes(deps: Deps, _noteable: SnippetNoteable, notes: NoteRow[]): Promise<NotePresenter> {
  const users = await usersById(deps.db, noteUserIds(notes));
  const baseUrl = deps.config.baseUrl;
  const note = (row: NoteRow) => noteEntity(baseUrl, row, users, null);
  return {
    note,
    discussion: (id, rows) => ({ ...discussionEntity(baseUrl, id, rows, users, 0), notes: rows.map(note) }),
  };
}

export const snippetNoteableKind: NoteableKind<SnippetNoteable> = {
  resource: 'snippets',
  iidParam: 'snippet_id',
  name: 'a project snippet',
  abilities: { read: 'read_snippet', create: 'create_note' },
  find: findSnippetNoteable,
  canComment: (access) => canOnProject(access, 'read_snippet') && canOnProject(access, 'create_note'),
  present: presentSnippetNotes,
  unsupported: { note: [], thread: ['position'] },
};
