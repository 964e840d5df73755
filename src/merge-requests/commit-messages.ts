// Merge and squash commit messages (GitLab's MergeRequest#default_merge_commit_message,
// #default_squash_commit_message and Gitlab::MergeRequests::MessageGenerator): the project's
// templates with their `%{…}` variables, or GitLab's defaults; and a new merge request's description
// template, where only the variables a merge request not yet created has are filled. A line that is
// only an empty variable is dropped, with the blank line before it when a blank line or the end
// follows; unknown variables stay as written; CRLF becomes LF in commit messages.
import type { CommitObject } from '../repositories/api.js';

export interface MessageFacts {
  sourceBranch: string;
  targetBranch: string;
  title: string;
  description: string | null;
  /** `group/project!7`. */
  reference: string;
  iid: number;
  sourceProjectId: number | null;
  url: string;
  mergedBy: { name: string; email: string };
  /** The merge request's author (`merge_request_author`). */
  author: { name: string; email: string };
  approvedBy: Array<{ name: string; email: string }>;
  reviewedBy: Array<{ name: string; email: string }>;
  /** `Closes #1 and #2`, empty without closing issues. */
  issues: string;
  /** The version's commits, newest first. */
  commits: CommitObject[];
  /** Whose authorship `co_authored_by` leaves out (the merger, or the MR author when squashing). */
  coAuthorExcept: string;
}

const ALL_COMMITS_BODY_LIMIT = 100 * 1024;

function variables(facts: MessageFacts): Record<string, string> {
  const nonMerge = facts.commits.filter((commit) => commit.parents.length < 2);
  const oldestFirst = [...nonMerge].reverse();
  const firstCommit = oldestFirst[0]?.message.trimEnd() ?? '';
  const multiline = oldestFirst.find((commit) => commit.message.trim().includes('\n'));
  const coAuthors = [...new Map(nonMerge.filter((commit) => commit.author.email !== facts.coAuthorExcept).map((commit) => [commit.author.email, `Co-authored-by: ${commit.author.name} <${commit.author.email}>`])).values()];
  return {
    source_branch: facts.sourceBranch,
    target_branch: facts.targetBranch,
    title: facts.title,
    description: facts.description ?? '',
    reference: facts.reference,
    local_reference: `!${facts.iid}`,
    source_project_id: facts.sourceProjectId === null ? '' : String(facts.sourceProjectId),
    url: facts.url,
    merged_by: `${facts.mergedBy.name} <${facts.mergedBy.email}>`,
    merge_request_author: `${facts.author.name} <${facts.author.email}>`,
    approved_by: facts.approvedBy.map((user) => `Approved-by: ${user.name} <${user.email}>`).join('\n'),
    reviewed_by: facts.reviewedBy.map((user) => `Reviewed-by: ${user.name} <${user.email}>`).join('\n'),
    issues: facts.issues,
    first_commit: firstCommit,
    first_multiline_commit: multiline ? multiline.message.trimEnd() : facts.title,
    co_authored_by: coAuthors.join('\n'),
    all_commits: oldestFirst.reverse().map((commit) => {
      const message = commit.message.trimEnd();
      return `* ${Buffer.byteLength(message) > ALL_COMMITS_BODY_LIMIT ? `${message.split('\n', 1)[0]}\n\n(The commit body exceeds 100 KiB and was skipped.)` : message}`;
    }).join('\n\n'),
  };
}

export function renderTemplate(template: string, facts: MessageFacts): string {
  return substitute(template.replace(/\r\n/g, '\n'), variables(facts));
}

/** The variables a new merge request's description template is filled with; GitLab's others are emptied there. */
const NEW_MERGE_REQUEST_VARIABLES = ['source_branch', 'target_branch', 'first_commit', 'first_multiline_commit', 'co_authored_by', 'all_commits'];

/** What a merge request being created has: its branches, the title it would get and the commits it would bring. */
export type NewMergeRequestFacts = Pick<MessageFacts, 'sourceBranch' | 'targetBranch' | 'title' | 'commits' | 'coAuthorExcept'>;

/**
 * A description template filled for a new merge request (GitLab's MessageGenerator#new_mr_description):
 * NEW_MERGE_REQUEST_VARIABLES from the branches and commits, every other of GitLab's variables empty
 * (a merge request not yet created has no reference, url or approvals), line ends kept.
 */
export function newMergeRequestDescription(template: string, facts: NewMergeRequestFacts): string {
  const all = variables({ ...facts, description: null, reference: '', iid: 0, sourceProjectId: null, url: '', mergedBy: { name: '', email: '' }, author: { name: '', email: '' }, approvedBy: [], reviewedBy: [], issues: '' });
  return substitute(template, Object.fromEntries(Object.keys(all).map((name) => [name, NEW_MERGE_REQUEST_VARIABLES.includes(name) ? all[name] : ''])));
}

function substitute(template: string, values: Record<string, string>): string {
  const lines = template.split('\n');
  const out: string[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index];
    const only = /^%\{([a-z_]+)\}$/.exec(line);
    if (only && only[1] in values && values[only[1]] === '') {
      const next = lines[index + 1];
      if ((next === undefined || next === '') && out.length > 0 && out[out.length - 1] === '') out.pop();
      continue;
    }
    out.push(line.replace(/%\{([a-z_]+)\}/g, (whole, name: string) => (name in values ? values[name] : whole)));
  }
  return out.join('\n');
}

export function defaultMergeMessage(facts: MessageFacts): string {
  const parts = [`Merge branch '${facts.sourceBranch}' into '${facts.targetBranch}'`, facts.title];
  if (facts.issues) parts.push(facts.issues);
  parts.push(`See merge request ${facts.reference}`);
  return parts.join('\n\n');
}

export function mergeMessage(template: string | null, facts: MessageFacts): string {
  return template ? renderTemplate(template, facts) : defaultMergeMessage(facts);
}

export function squashMessage(template: string | null, facts: MessageFacts): string {
  return template ? renderTemplate(template, facts) : facts.title;
}
