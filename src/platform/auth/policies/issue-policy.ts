// Abilities on one issue: confidentiality (Reporter and above, the author, the assignees) and
// authorship (authors who are members change their own issue), GitLab's issue_policy.rb.
import { ACCESS } from '../access-levels.js';
import { canOnProject, type PolicySubject } from './policy.js';

export interface IssueFacts {
  confidential: boolean | number;
  author_id: number;
  /** Users assigned to the issue, when the caller knows them. */
  assigneeIds?: readonly number[];
  /** A locked discussion (GitLab's discussion_locked): only members comment; it is not reopened. */
  discussion_locked?: boolean | number | null;
}

function isAuthorOrAssignee(subject: PolicySubject, issue: IssueFacts): boolean {
  const userId = subject.user?.id;
  if (userId === undefined) return false;
  return Number(issue.author_id) === userId || (issue.assigneeIds ?? []).includes(userId);
}

/** read_issue on this issue; a caller that cannot read it gets 404, as GitLab answers. */
export function canReadIssue(subject: PolicySubject, issue: IssueFacts): boolean {
  if (!canOnProject(subject, 'read_issue')) return false;
  if (!issue.confidential) return true;
  return canOnProject(subject, 'read_confidential_issues') || isAuthorOrAssignee(subject, issue);
}

/** update_issue on this issue: Reporters and above, or its author or assignee holding a membership. */
export function canUpdateIssue(subject: PolicySubject, issue: IssueFacts): boolean {
  if (!canReadIssue(subject, issue)) return false;
  if (canOnProject(subject, 'update_issue')) return true;
  return subject.level >= ACCESS.guest && isAuthorOrAssignee(subject, issue);
}

/**
 * admin_note on one comment (GitLab's NotePolicy): its author, or Maintainers and above (admin_note on
 * the project); system notes are never edited. The caller has already read the issue.
 */
export function canAdminNote(subject: PolicySubject, note: { author_id: number; system: boolean | number }): boolean {
  if (Number(note.system) === 1 || note.system === true) return false;
  const user = subject.user;
  if (!user || user.state !== 'active') return false;
  return Number(note.author_id) === user.id || canOnProject(subject, 'admin_note');
}

/**
 * set_issue_metadata (GitLab's IssuePolicy): labels, assignees, milestone, due date and locking. On a
 * new issue any member (Guest and above) may set them; on an existing one only holders of admin_issue.
 */
export function canSetIssueMetadata(subject: PolicySubject, persisted: boolean): boolean {
  if (canOnProject(subject, 'admin_issue')) return true;
  return !persisted && subject.user !== null && subject.level >= ACCESS.guest && canOnProject(subject, 'create_issue');
}

/** set_confidentiality: any creator of a new issue; afterwards those who may set its metadata. */
export function canSetConfidentiality(subject: PolicySubject, persisted: boolean): boolean {
  return persisted ? canSetIssueMetadata(subject, true) : canOnProject(subject, 'create_issue');
}

/** create_note on this issue: a locked discussion takes comments from members only (IssuablePolicy). */
export function canCommentOnIssue(subject: PolicySubject, issue: IssueFacts): boolean {
  if (!canReadIssue(subject, issue) || !canOnProject(subject, 'create_note')) return false;
  return !Number(issue.discussion_locked ?? 0) || subject.level >= ACCESS.guest;
}

/** reopen_issue: a locked issue is not reopened (IssuePolicy: `locked` prevents it). */
export function canReopenIssue(subject: PolicySubject, issue: IssueFacts): boolean {
  return canUpdateIssue(subject, issue) && !Number(issue.discussion_locked ?? 0);
}
