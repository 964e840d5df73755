// Abilities on one merge request's review (GitLab's merge_request_policy.rb with IssuablePolicy): who
// comments on it (create_note; a locked discussion only project members) and who resolves its threads
// (the author, or Developers: resolve_note; a note's own author resolves that note, NotePolicy).
import { ACCESS } from '../access-levels.js';
import { canOnProject, type PolicySubject } from './policy.js';

export interface MergeRequestFacts {
  author_id: number;
  discussion_locked?: boolean | number | null;
}

export function canCommentOnMergeRequest(subject: PolicySubject, mr: MergeRequestFacts): boolean {
  if (!canOnProject(subject, 'read_merge_request') || !canOnProject(subject, 'create_note')) return false;
  return !Number(mr.discussion_locked ?? 0) || subject.level >= ACCESS.guest;
}

/** Discussion#can_resolve?: the merge request's author or a holder of resolve_note. */
export function canResolveThread(subject: PolicySubject, mr: MergeRequestFacts): boolean {
  if (!subject.user || !canOnProject(subject, 'read_merge_request')) return false;
  return Number(mr.author_id) === subject.user.id || canOnProject(subject, 'resolve_note');
}

/** resolve_note on one note: also the note's author. */
export function canResolveNote(subject: PolicySubject, mr: MergeRequestFacts, note: { author_id: number }): boolean {
  if (!subject.user || !canOnProject(subject, 'read_merge_request')) return false;
  return Number(note.author_id) === subject.user.id || canResolveThread(subject, mr);
}
