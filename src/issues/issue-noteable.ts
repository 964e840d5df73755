// Issues as a kind of noteable (noteable-kind.ts): found as the caller may read them, commented on by
// whoever may comment (discussion lock), no diff threads, nothing resolvable.
import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { canCommentOnIssue } from '../platform/auth/policies/index.js';
import type { NoteableKind, NotePresenter } from './noteable-kind.js';
import type { Noteable } from './noteable.js';
import { discussionEntity, noteEntity, noteUserIds, usersById, type NoteRow } from './entities.js';
import { findReadableIssue, type PolicyIssue } from './finder.js';
import { issueNoteable } from './create-note.js';

export type IssueNoteable = Noteable & { issue: PolicyIssue };

/** The users of these notes, and their entities, for any noteable without extras. */
export async function plainNotePresenter(deps: Deps, noteable: Noteable, notes: NoteRow[]): Promise<NotePresenter> {
  const users = await usersById(deps.db, noteUserIds(notes));
  const baseUrl = deps.config.baseUrl;
  return {
    note: (row) => noteEntity(baseUrl, row, users, noteable.iid),
    discussion: (id, rows) => discussionEntity(baseUrl, id, rows, users, noteable.iid),
  };
}

export const issueNoteableKind: NoteableKind<IssueNoteable> = {
  resource: 'issues',
  iidParam: 'issue_iid',
  name: 'an issue',
  abilities: { read: 'read_note', create: 'create_note' },
  async find(deps: Deps, access: ProjectAccess, iid: number) {
    const issue = await findReadableIssue(deps, access, iid);
    return { ...issueNoteable(issue), issue };
  },
  canComment: (access, noteable) => canCommentOnIssue(access, noteable.issue),
  present: plainNotePresenter,
  // Quick actions' head check and diff positions are merge requests' (lib/api/notes.rb, discussions.rb).
  unsupported: { note: ['merge_request_diff_head_sha'], thread: ['position'] },
};
