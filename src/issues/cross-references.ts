// Cross-reference system notes (GitLab's Mentionable#create_cross_references! and SystemNoteService
// cross_reference): an issue, merge request or commit whose text names another issue or merge request
// (`#3`, `!7`, `project#3`, `group/project!7`) leaves "mentioned in issue #1", "mentioned in merge
// request !7" or "mentioned in commit <sha>" on it, with the source written as seen from the target
// (`project#1` from a sibling project, the full path from elsewhere). Written once per source and
// target, however often the text is edited or the comment repeated, and only on targets the author
// may read (a confidential issue or a project they cannot see gets nothing). Run as a job after the
// change commits: it reads permissions and projects outside the change's transaction.
import type { Deps } from '../platform/deps.js';
import type { EventTx } from '../platform/domain-events.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { inTransaction } from '../platform/db/database.js';
import { enqueue } from '../platform/jobs/queue.js';
import { canOnProject, canReadIssue, type PolicySubject } from '../platform/auth/policies/index.js';
import { findProjectRow, projectAccess, toAuthUser } from '../accounts/api.js';
import { ISSUE_REFERENCE, MERGE_REQUEST_REFERENCE, PROJECT_REFERENCE, proseOnly, referencedProjectPath } from '../markdown/api.js';
import { newDiscussionId } from './create-note.js';

export const CROSS_REFERENCE_JOB = 'issues.cross_reference';

/** A reference sigil followed by a digit: a text without one names nothing. */
export const MAY_REFERENCE = /[#!]\d/;

/** At most this many targets get a note from one text, among at most this many references read. */
const MAX_TARGETS = 20;
const MAX_CANDIDATES = 1_000;

type Source = { type: 'Issue' | 'MergeRequest'; id: number; iid: number; project: ProjectRow } | { type: 'Commit'; sha: string; project: ProjectRow };

interface Target {
  type: 'Issue' | 'MergeRequest';
  id: number;
  projectId: number;
}

export interface CrossReferencePayload {
  actorId: number;
  /** The text's owner: an issue, a merge request (title and description), or a comment (its body). */
  source: 'Issue' | 'MergeRequest' | 'Note';
  id: number;
}

/** Queue the cross-references of a text that was just written (in the transaction of the change). */
export function enqueueCrossReferences(tx: EventTx, deps: Deps, payload: CrossReferencePayload): Promise<unknown> {
  return enqueue(tx, deps.clock, CROSS_REFERENCE_JOB, { ...payload });
}

/** `#3` / `!7` / `project@sha` as written in `target`'s project (GitLab's to_reference(from)). */
function sourceReference(source: Source, target: ProjectRow): string {
  const base = Number(source.project.id) === Number(target.id) ? '' : Number(source.project.namespace_id) === Number(target.namespace_id) ? source.project.path : source.project.full_path;
  if (source.type === 'Commit') return base ? `${base}@${source.sha}` : source.sha;
  return `${base}${source.type === 'Issue' ? '#' : '!'}${source.iid}`;
}

function noteBody(source: Source, target: ProjectRow): string {
  const kind = source.type === 'Issue' ? 'issue' : source.type === 'MergeRequest' ? 'merge request' : 'commit';
  return `mentioned in ${kind} ${sourceReference(source, target)}`;
}

/** The source, kept on the note so readers who cannot read it do not see it (cross-reference-visibility.ts). */
function sourceColumns(source: Source) {
  const project = Number(source.project.id);
  return source.type === 'Commit'
    ? { cross_reference_type: source.type, cross_reference_project_id: project, cross_reference_sha: source.sha }
    : { cross_reference_type: source.type, cross_reference_project_id: project, cross_reference_iid: source.iid };
}

/** The issues and merge requests `text` names, seen from `context`, that `user` may read. */
async function readableTargets(deps: Deps, user: AuthUser, context: ProjectRow, written: string): Promise<Array<Target & { project: ProjectRow }>> {
  // A reference inside code is not one (GitLab's filters skip code): `#3` in a code span mentions nothing.
  const text = proseOnly(written);
  const wanted = new Map<string, { type: 'Issue' | 'MergeRequest'; path: string; iid: number }>();
  const add = (type: 'Issue' | 'MergeRequest', path: string, iid: number) => {
    if (wanted.size < MAX_TARGETS) wanted.set(`${path.toLowerCase()}${type}${iid}`, { type, path: path.toLowerCase(), iid });
  };
  const limited = function* (matches: IterableIterator<RegExpMatchArray>) {
    let seen = 0;
    for (const match of matches) if ((seen += 1) <= MAX_CANDIDATES) yield match;
  };
  for (const match of limited(text.matchAll(ISSUE_REFERENCE))) add('Issue', context.full_path, Number(match[1]));
  for (const match of limited(text.matchAll(MERGE_REQUEST_REFERENCE))) add('MergeRequest', context.full_path, Number(match[1]));
  for (const match of limited(text.matchAll(PROJECT_REFERENCE))) add(match[2] === '#' ? 'Issue' : 'MergeRequest', referencedProjectPath(match[1], context), Number(match[3]));
  const projects = new Map<string, { row: ProjectRow; access: PolicySubject } | null>();
  const targets: Array<Target & { project: ProjectRow }> = [];
  for (const { type, path, iid } of wanted.values()) {
    if (!projects.has(path)) {
      const row = path === context.full_path.toLowerCase() ? context : await findProjectRow(deps, path);
      const access = row && { user, level: (await projectAccess(deps.reads, user, row, deps.clock.now())).level, visibility: row.visibility, features: row };
      projects.set(path, row && access && canOnProject(access, 'read_project') ? { row, access } : null);
    }
    const project = projects.get(path);
    if (!project) continue;
    const projectId = Number(project.row.id);
    if (type === 'Issue') {
      const issue = await deps.db.selectFrom('issues').select(['id', 'confidential', 'author_id']).where('project_id', '=', projectId).where('iid', '=', iid).executeTakeFirst();
      if (!issue) continue;
      const assigneeIds = (await deps.db.selectFrom('issue_assignees').select('user_id').where('issue_id', '=', Number(issue.id)).execute()).map((row) => Number(row.user_id));
      if (canReadIssue(project.access, { ...issue, assigneeIds })) targets.push({ type, id: Number(issue.id), projectId, project: project.row });
    } else if (canOnProject(project.access, 'read_merge_request')) {
      const mr = await deps.db.selectFrom('merge_requests').select('id').where('target_project_id', '=', projectId).where('iid', '=', iid).executeTakeFirst();
      if (mr) targets.push({ type, id: Number(mr.id), projectId, project: project.row });
    }
  }
  return targets;
}

/** Write the notes `source`'s `text` calls for, as `actorId`; each once. */
async function crossReference(deps: Deps, actorId: number, source: Source, text: string): Promise<void> {
  if (!MAY_REFERENCE.test(text)) return;
  const userRow = await deps.db.selectFrom('users').selectAll().where('id', '=', actorId).executeTakeFirst();
  if (!userRow) return;
  const targets = (await readableTargets(deps, toAuthUser(userRow), source.project, text)).filter((target) => !(source.type === target.type && source.id === target.id));
  if (targets.length === 0) return;
  const now = deps.clock.now();
  await inTransaction(deps.db, async (trx) => {
    for (const target of targets) {
      const body = noteBody(source, target.project);
      const exists = await trx.selectFrom('notes').select('id').where('noteable_type', '=', target.type).where('noteable_id', '=', target.id).where('system', '=', 1).where('body', '=', body).executeTakeFirst();
      if (exists) continue;
      await trx
        .insertInto('notes')
        .values({ project_id: target.projectId, noteable_type: target.type, noteable_id: target.id, author_id: actorId, body, system: 1, discussion_id: newDiscussionId(), created_at: now, updated_at: now, ...sourceColumns(source) })
        .execute();
    }
  });
}

/** The job: the source's text read now (a later edit is read by its own job; each note is written once). */
export async function crossReferenceJob(deps: Deps, payload: CrossReferencePayload): Promise<void> {
  let source: Source | null = null;
  let text = '';
  let type: 'Issue' | 'MergeRequest' | 'Commit' = payload.source === 'Note' ? 'Issue' : payload.source;
  let id = payload.id;
  if (payload.source === 'Note') {
    const note = await deps.db.selectFrom('notes').select(['noteable_type', 'noteable_id', 'body', 'commit_id', 'project_id', 'system']).where('id', '=', payload.id).executeTakeFirst();
    // Snippet comments mention no issues yet (a snippet is no cross-reference source in Kiln).
    if (!note || Number(note.system) === 1 || note.noteable_type === 'AlertManagement::Alert' || note.noteable_type === 'Snippet') return;
    type = note.noteable_type;
    id = Number(note.noteable_id);
    text = note.body;
    if (type === 'Commit') {
      const project = await findProjectRow(deps, Number(note.project_id));
      if (!project || !note.commit_id) return;
      source = { type: 'Commit', sha: note.commit_id, project };
    }
  }
  if (type === 'Issue') {
    const issue = await deps.db.selectFrom('issues').select(['id', 'iid', 'project_id', 'title', 'description']).where('id', '=', id).executeTakeFirst();
    const project = issue && (await findProjectRow(deps, Number(issue.project_id)));
    if (!issue || !project) return;
    source = { type, id, iid: Number(issue.iid), project };
    if (payload.source !== 'Note') text = `${issue.title}\n\n${issue.description ?? ''}`;
  } else if (type === 'MergeRequest') {
    const mr = await deps.db.selectFrom('merge_requests').select(['id', 'iid', 'target_project_id', 'title', 'description']).where('id', '=', id).executeTakeFirst();
    const project = mr && (await findProjectRow(deps, Number(mr.target_project_id)));
    if (!mr || !project) return;
    source = { type, id, iid: Number(mr.iid), project };
    if (payload.source !== 'Note') text = `${mr.title}\n\n${mr.description ?? ''}`;
  }
  if (source) await crossReference(deps, payload.actorId, source, text);
}

/** The commits a push brought (GitLab's ProcessCommitWorker): each names its issues and merge requests. */
export async function crossReferenceCommits(deps: Deps, project: ProjectRow, actorId: number, commits: Array<{ id: string; message: string }>): Promise<void> {
  for (const commit of commits) if (MAY_REFERENCE.test(commit.message)) await crossReference(deps, actorId, { type: 'Commit', sha: commit.id, project }, commit.message);
}
