// A kind of noteable as the notes and discussions routes see it (GitLab's NotesHelpers.noteable_types):
// its path, how the caller's noteable is found, who may comment, how its notes are presented, and what
// only some kinds have — threads started on a diff line, resolvable threads. Issues declare theirs
// (issue-noteable.ts); merge requests theirs (merge-requests/review). The routes are one
// implementation for every kind (note-routes.ts, discussion-routes.ts).
import type { Deps } from '../platform/deps.js';
import type { ParamSchema } from '../platform/http/params.js';
import type { AuthUser } from '../platform/auth/principal.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import type { ProjectAbility } from '../platform/auth/policies/abilities.js';
import type { NoteRow } from './entities.js';
import type { Noteable } from './noteable.js';

/** Entities of one noteable's notes, their users (and anything else shown) read once. */
export interface NotePresenter {
  note(row: NoteRow): unknown;
  discussion(id: string, notes: NoteRow[]): unknown;
}

export interface NoteableKind<T extends Noteable = Noteable, K extends number | string = number> {
  /** `/projects/:id/<resource>/:<iidParam>/notes` */
  resource: 'issues' | 'merge_requests' | 'repository/commits' | 'snippets';
  iidParam: 'issue_iid' | 'merge_request_iid' | 'commit_id' | 'snippet_id';
  /** A commit is named by its sha, a string; issues and merge requests by their integer iid (the default). */
  keyType?: 'string';
  /** For route summaries: "an issue", "a merge request". */
  name: string;
  /** The routes' declared abilities: reading the notes, writing one. */
  abilities: { read: ProjectAbility; create: ProjectAbility };
  /** The noteable the caller may read, or its kind's 404. */
  find(deps: Deps, access: ProjectAccess, iid: K): Promise<T>;
  /** create_note on it (discussion lock included). */
  canComment(access: ProjectAccess, noteable: T): boolean;
  present(deps: Deps, noteable: T, notes: NoteRow[]): Promise<NotePresenter>;
  /** Parameters of POST …/notes and …/discussions that this kind does not have: refused with a 400 naming them. */
  unsupported: { note: string[]; thread: string[] };
  /** A thread started with more than a body (merge requests: `position` makes a DiffNote, `commit_id`). */
  thread?: {
    params: ParamSchema;
    start(deps: Deps, actor: AuthUser, noteable: T, body: string, input: Record<string, unknown>, createdAt: number | undefined): Promise<NoteRow>;
  };
  /** After a note's text changed (merge requests rebuild a diff note's suggestions). */
  noteUpdated?(deps: Deps, noteable: T, note: NoteRow): Promise<void>;
  /** Resolvable threads (merge requests): PUT …/discussions/:id and PUT …/notes/:id with `resolved`. */
  resolve?: {
    discussion(deps: Deps, actor: AuthUser, access: ProjectAccess, noteable: T, notes: NoteRow[], resolved: boolean): Promise<NoteRow[]>;
    note(deps: Deps, actor: AuthUser, access: ProjectAccess, noteable: T, note: NoteRow, resolved: boolean): Promise<NoteRow>;
  };
}
