// Merge requests as a kind of noteable (issues/noteable-kind.ts): read by whoever reads the merge
// request (`404 Merge Request Not Found` otherwise), threads started on a diff line with `position`
// (a DiffNote), resolvable threads, and diff notes shown with their suggestions.
import type { Deps } from '../../platform/deps.js';
import { p } from '../../platform/http/params.js';
import { NotFoundError } from '../../platform/errors.js';
import { canCommentOnMergeRequest, canOnProject } from '../../platform/auth/policies/index.js';
import type { NoteableKind } from '../../issues/api.js';
import type { MergeRequestRow } from '../rows.js';
import { findMergeRequest } from '../finder.js';
import { presentMergeRequestNotes } from './present-notes.js';
import { startMergeRequestThread } from './start-thread.js';
import { resolveDiscussion, resolveNote } from './resolve-discussion.js';
import { refreshSuggestions } from './suggestions/refresh-suggestions.js';
import { mergeRequestNoteable, type MergeRequestNoteable } from './merge-request-noteable-type.js';

export { mergeRequestNoteable, type MergeRequestNoteable };

/** The merge request of the path, read as the caller may: the project must let them read merge requests. */
export async function findReadableMergeRequest(deps: Deps, access: Parameters<typeof canOnProject>[0] & { project: { id: number } }, iid: number): Promise<MergeRequestRow> {
  if (!canOnProject(access, 'read_merge_request')) throw new NotFoundError('Merge Request');
  return findMergeRequest(deps.db, Number(access.project.id), iid);
}

export const mergeRequestNoteableKind: NoteableKind<MergeRequestNoteable> = {
  resource: 'merge_requests',
  iidParam: 'merge_request_iid',
  name: 'a merge request',
  abilities: { read: 'read_merge_request', create: 'create_note' },
  find: async (deps, access, iid) => mergeRequestNoteable(await findReadableMergeRequest(deps, access, iid)),
  canComment: (access, noteable) => canCommentOnMergeRequest(access, noteable.mr),
  present: presentMergeRequestNotes,
  // `merge_request_diff_head_sha` only guards the /merge quick action, which Kiln does not run.
  unsupported: { note: [], thread: [] },
  thread: {
    params: { position: p.json.optional(), commit_id: p.string.optional() },
    start: startMergeRequestThread,
  },
  resolve: {
    discussion: (deps, actor, access, noteable, notes, resolved) => resolveDiscussion(deps, actor, access, noteable.mr, notes, resolved),
    note: (deps, actor, access, noteable, note, resolved) => resolveNote(deps, actor, access, noteable.mr, note, resolved),
  },
  noteUpdated: (deps, noteable, note) => refreshSuggestions(deps, noteable.mr, note),
};
