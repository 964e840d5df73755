// The GitLab references a text makes that the viewer may follow: issues and merge requests of the
// context project (`#12`, `!7`) and of other projects (`project#12`, `group/project!7`: GitLab's
// cross-project forms, a bare project path meaning the context project's namespace) that the viewer
// may read — a confidential issue of someone else's, or anything of a project they cannot read, stays
// plain text, so its title never leaks — and users by username. Resolved before rendering, in bounded
// queries.
import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import type { PolicySubject } from '../platform/auth/policies/index.js';
import { canOnProject, canReadIssue } from '../platform/auth/policies/index.js';
import { findProjectRow, projectAccess, projectWebUrl, userWebUrl } from '../accounts/api.js';
import {
  ISSUE_REFERENCE,
  MERGE_REQUEST_REFERENCE,
  PROJECT_REFERENCE,
  USER_REFERENCE,
  crossProjectKey,
  withoutTrailingDots,
  type References,
  type ResolvedIssue,
  type ResolvedMergeRequest,
  type ResolvedUser,
} from './render-markdown.js';
import { referencedProjectPath } from './project-paths.js';
import { resolveCommitReferences } from './commit-references.js';
import { proseOnly } from './prose-only.js';

/** At most this many distinct references of each kind are looked up in one text. */
const MAX_REFERENCES = 200;
/** And at most this many candidates of each kind are looked at (a text of a million `@a` stops here). */
const MAX_CANDIDATES = 10_000;
/** At most this many other projects are looked up for cross-project references in one text. */
const MAX_PROJECTS = 20;

type Viewed = PolicySubject & { project: ProjectAccess['project'] };

/** The issues of the project among `iids` that `access` may read, by iid. */
async function readableIssues(deps: Deps, access: Viewed, iids: number[]): Promise<Map<number, ResolvedIssue>> {
  const found = new Map<number, ResolvedIssue>();
  if (!iids.length || !canOnProject(access, 'read_issue')) return found;
  const rows = await deps.db.selectFrom('issues').select(['id', 'iid', 'title', 'confidential', 'author_id']).where('project_id', '=', access.project.id).where('iid', 'in', iids).execute();
  // Assignees read a confidential issue too (issue-policy.ts): only those issues need them.
  const confidential = rows.filter((row) => row.confidential).map((row) => Number(row.id));
  const assignees = confidential.length ? await deps.db.selectFrom('issue_assignees').select(['issue_id', 'user_id']).where('issue_id', 'in', confidential).execute() : [];
  const base = projectWebUrl(deps.config.baseUrl, access.project.full_path);
  for (const row of rows) {
    const assigneeIds = assignees.filter((assignee) => Number(assignee.issue_id) === Number(row.id)).map((assignee) => Number(assignee.user_id));
    if (!canReadIssue(access, { ...row, assigneeIds })) continue;
    found.set(Number(row.iid), { url: `${base}/-/issues/${row.iid}`, title: row.title, projectId: Number(access.project.id), issueId: Number(row.id) });
  }
  return found;
}

/** The merge requests of the project among `iids`, when `access` may read its merge requests, by iid. */
async function readableMergeRequests(deps: Deps, access: Viewed, iids: number[]): Promise<Map<number, ResolvedMergeRequest>> {
  const found = new Map<number, ResolvedMergeRequest>();
  if (!iids.length || !canOnProject(access, 'read_merge_request')) return found;
  const rows = await deps.db.selectFrom('merge_requests').select(['id', 'iid', 'title']).where('target_project_id', '=', access.project.id).where('iid', 'in', iids).execute();
  const base = projectWebUrl(deps.config.baseUrl, access.project.full_path);
  for (const row of rows) found.set(Number(row.iid), { url: `${base}/-/merge_requests/${row.iid}`, title: row.title, projectId: Number(access.project.id), mergeRequestId: Number(row.id) });
  return found;
}


/** `project#12` and `group/project!7` the viewer of `context` may read, keyed as crossProjectKey. */
async function crossProjectReferences(deps: Deps, text: string, context: ProjectAccess): Promise<Map<string, ResolvedIssue | ResolvedMergeRequest>> {
  const found = new Map<string, ResolvedIssue | ResolvedMergeRequest>();
  // full path (lower case) → the written forms and the iids of each kind.
  const wanted = new Map<string, { written: Set<string>; issues: Set<number>; mergeRequests: Set<number> }>();
  let seen = 0;
  for (const match of text.matchAll(PROJECT_REFERENCE)) {
    seen += 1;
    if (seen > MAX_CANDIDATES) break;
    const fullPath = referencedProjectPath(match[1], context.project).toLowerCase();
    let entry = wanted.get(fullPath);
    if (!entry) {
      if (wanted.size >= MAX_PROJECTS) continue;
      entry = { written: new Set(), issues: new Set(), mergeRequests: new Set() };
      wanted.set(fullPath, entry);
    }
    if (entry.issues.size + entry.mergeRequests.size >= MAX_REFERENCES) continue;
    entry.written.add(match[1].toLowerCase());
    (match[2] === '#' ? entry.issues : entry.mergeRequests).add(Number(match[3]));
  }
  for (const [fullPath, entry] of wanted) {
    const row = fullPath === context.project.full_path.toLowerCase() ? context.project : await findProjectRow(deps, fullPath);
    if (!row) continue;
    const access: Viewed =
      Number(row.id) === Number(context.project.id)
        ? context
        : { user: context.user, level: (await projectAccess(deps.reads, context.user, row, deps.clock.now())).level, visibility: row.visibility, features: row, project: row };
    if (!canOnProject(access, 'read_project')) continue;
    const issues = await readableIssues(deps, access, [...entry.issues]);
    const mergeRequests = await readableMergeRequests(deps, access, [...entry.mergeRequests]);
    for (const written of entry.written) {
      for (const [iid, issue] of issues) found.set(crossProjectKey(written, '#', iid), issue);
      for (const [iid, mr] of mergeRequests) found.set(crossProjectKey(written, '!', iid), mr);
    }
  }
  return found;
}

export async function resolveReferences(deps: Deps, written: string, project?: ProjectAccess): Promise<References> {
  // Code links nothing (the renderer leaves code alone): what it names is not looked up either.
  const text = proseOnly(written);
  const users = new Map<string, ResolvedUser>();
  const iids = project ? distinct(text.matchAll(ISSUE_REFERENCE), (match) => Number(match[1])) : [];
  const mrIids = project ? distinct(text.matchAll(MERGE_REQUEST_REFERENCE), (match) => Number(match[1])) : [];
  const issues = project ? await readableIssues(deps, project, iids) : new Map<number, ResolvedIssue>();
  const mergeRequests = project ? await readableMergeRequests(deps, project, mrIids) : new Map<number, ResolvedMergeRequest>();
  const crossProject = project ? await crossProjectReferences(deps, text, project) : new Map<string, ResolvedIssue | ResolvedMergeRequest>();
  const usernames = distinct(text.matchAll(USER_REFERENCE), (match) => withoutTrailingDots(match[1]).toLowerCase() || null);
  if (usernames.length) {
    const rows = await deps.db.selectFrom('users').select(['id', 'username', 'name']).where('username_lower', 'in', usernames).execute();
    for (const row of rows) users.set(row.username.toLowerCase(), { url: userWebUrl(deps.config.baseUrl, row.username), name: row.name, id: Number(row.id) });
  }
  const commits = project ? await resolveCommitReferences(deps, text, project) : undefined;
  return { issues, users, mergeRequests, crossProject, commits };
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
