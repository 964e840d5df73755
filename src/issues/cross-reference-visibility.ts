// "mentioned in …" notes shown only to readers who may read their source (GitLab's
// Note#cross_reference_not_visible_for?): a note on a public issue must not reveal a private project's
// path, a confidential issue's number, or a merge request of a project whose merge requests the reader
// cannot see. The source is kept on the note (cross_reference_* columns, cross-references.ts); a list of
// notes is checked at once: one access check per source project, one query for the source issues and
// one for their assignees, however many notes. 'Unknown' (an old note the migration could not parse)
// and a source that no longer exists are hidden.
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { canOnProject, canReadIssue, type PolicySubject } from '../platform/auth/policies/index.js';
import { findProjectRow, projectAccess } from '../accounts/api.js';
import type { NoteRow } from './entities.js';

type Sourced = Pick<NoteRow, 'cross_reference_type' | 'cross_reference_project_id' | 'cross_reference_iid'>;

/** The notes `reader` may see, in their order; `access` (the target's project as the reader sees it) saves a check. */
export async function visibleNotes<N extends Sourced>(deps: Deps, reader: AuthUser | null, notes: N[], access?: ProjectAccess): Promise<N[]> {
  const sourced = notes.filter((note) => note.cross_reference_type !== null && note.cross_reference_type !== undefined);
  if (sourced.length === 0) return notes;
  const subjects = new Map<number, PolicySubject | null>();
  if (access) subjects.set(Number(access.project.id), access);
  for (const projectId of new Set(sourced.map((note) => Number(note.cross_reference_project_id ?? 0)))) {
    if (subjects.has(projectId) || projectId === 0) continue;
    const row = await findProjectRow(deps, projectId);
    const subject = row ? { user: reader, level: (await projectAccess(deps.reads, reader, row, deps.clock.now())).level, visibility: row.visibility, features: row } : null;
    subjects.set(projectId, subject && canOnProject(subject, 'read_project') ? subject : null);
  }
  const issueKeys = sourced.filter((note) => note.cross_reference_type === 'Issue' && subjects.get(Number(note.cross_reference_project_id)));
  const issues = issueKeys.length === 0 ? [] : await deps.db
    .selectFrom('issues')
    .select(['id', 'project_id', 'iid', 'confidential', 'author_id'])
    .where((eb) => eb.or(issueKeys.map((note) => eb.and([eb('project_id', '=', Number(note.cross_reference_project_id)), eb('iid', '=', Number(note.cross_reference_iid))]))))
    .execute();
  const confidential = issues.filter((issue) => Number(issue.confidential) === 1).map((issue) => Number(issue.id));
  const assignees = confidential.length === 0 ? [] : await deps.db.selectFrom('issue_assignees').select(['issue_id', 'user_id']).where('issue_id', 'in', confidential).execute();
  const issueByKey = new Map(issues.map((issue) => [`${Number(issue.project_id)}:${Number(issue.iid)}`, { ...issue, assigneeIds: assignees.filter((row) => Number(row.issue_id) === Number(issue.id)).map((row) => Number(row.user_id)) }]));
  return notes.filter((note) => {
    if (note.cross_reference_type === null || note.cross_reference_type === undefined) return true;
    const subject = subjects.get(Number(note.cross_reference_project_id ?? 0));
    if (!subject) return false;
    switch (note.cross_reference_type) {
      case 'Issue': {
        const issue = issueByKey.get(`${Number(note.cross_reference_project_id)}:${Number(note.cross_reference_iid)}`);
        return issue !== undefined && canReadIssue(subject, issue);
      }
      case 'MergeRequest':
        return canOnProject(subject, 'read_merge_request');
      case 'Commit':
        return canOnProject(subject, 'download_code');
      default:
        return false;
    }
  });
}
