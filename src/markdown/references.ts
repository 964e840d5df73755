// The GitLab references a text makes that the viewer may follow: issues of the context project that
// the issue policy lets the viewer read (a confidential issue of someone else's stays plain text, so
// its title never leaks), and users by username. Resolved before rendering, in two bounded queries.
import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { canOnProject, canReadIssue } from '../platform/auth/policies/index.js';
import { projectWebUrl, userWebUrl } from '../accounts/api.js';
import { ISSUE_REFERENCE, MERGE_REQUEST_REFERENCE, USER_REFERENCE, withoutTrailingDots, type References, type ResolvedIssue, type ResolvedMergeRequest, type ResolvedUser } from './render-markdown.js';

/** At most this many distinct references of each kind are looked up in one text. */
const MAX_REFERENCES = 200;
/** And at most this many candidates of each kind are looked at (a text of a million `@a` stops here). */
const MAX_CANDIDATES = 10_000;

export async function resolveReferences(deps: Deps, text: string, project?: ProjectAccess): Promise<References> {
  const base = deps.config.baseUrl;
  const issues = new Map<number, ResolvedIssue>();
  const users = new Map<string, ResolvedUser>();
  const mergeRequests = new Map<number, ResolvedMergeRequest>();
  const iids = project ? distinct(text.matchAll(ISSUE_REFERENCE), (match) => Number(match[1])) : [];
  // Merge requests of the context project, for callers who may read its merge requests.
  const mrIids = project && canOnProject(project, 'read_merge_request') ? distinct(text.matchAll(MERGE_REQUEST_REFERENCE), (match) => Number(match[1])) : [];
  if (project && mrIids.length) {
    const rows = await deps.db.selectFrom('merge_requests').select(['id', 'iid', 'title']).where('target_project_id', '=', project.project.id).where('iid', 'in', mrIids).execute();
    for (const row of rows) {
      mergeRequests.set(Number(row.iid), { url: `${projectWebUrl(base, project.project.full_path)}/-/merge_requests/${row.iid}`, title: row.title, projectId: Number(project.project.id), mergeRequestId: Number(row.id) });
    }
  }
  const usernames = distinct(text.matchAll(USER_REFERENCE), (match) => withoutTrailingDots(match[1]).toLowerCase() || null);
  if (project && iids.length) {
    const rows = await deps.db
      .selectFrom('issues')
      .select(['id', 'iid', 'title', 'confidential', 'author_id'])
      .where('project_id', '=', project.project.id)
      .where('iid', 'in', iids)
      .execute();
    // Assignees read a confidential issue too (issue-policy.ts): only those issues need them.
    const confidential = rows.filter((row) => row.confidential).map((row) => Number(row.id));
    const assignees = confidential.length ? await deps.db.selectFrom('issue_assignees').select(['issue_id', 'user_id']).where('issue_id', 'in', confidential).execute() : [];
    for (const row of rows) {
      const assigneeIds = assignees.filter((assignee) => Number(assignee.issue_id) === Number(row.id)).map((assignee) => Number(assignee.user_id));
      if (!canReadIssue(project, { ...row, assigneeIds })) continue;
      issues.set(Number(row.iid), { url: `${projectWebUrl(base, project.project.full_path)}/-/issues/${row.iid}`, title: row.title, projectId: Number(project.project.id), issueId: Number(row.id) });
    }
  }
  if (usernames.length) {
    const rows = await deps.db.selectFrom('users').select(['id', 'username', 'name']).where('username_lower', 'in', usernames).execute();
    for (const row of rows) users.set(row.username.toLowerCase(), { url: userWebUrl(base, row.username), name: row.name, id: Number(row.id) });
  }
  return { issues, users, mergeRequests };
}

/** The first MAX_REFERENCES distinct values of the matches, looking at MAX_CANDIDATES matches at most. */
function distinct<T>(matches: IterableIterator<RegExpMatchArray>, valueOf: (match: RegExpMatchArray) => T | null): T[] {
  const values = new Set<T>();
  let seen = 0;
  for (const match of matches) {
    const value = valueOf(match);
    if (value !== null) values.add(value);
    seen += 1;
    if (values.size >= MAX_REFERENCES || seen >= MAX_CANDIDATES) break;
  }
  return [...values];
}
