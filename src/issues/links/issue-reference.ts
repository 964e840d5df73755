// An issue's reference as written from another project (GitLab's Issue#to_reference(from)): `#2` in
// its own project, `full/path#2` from any other.
import type { ProjectRow } from '../../platform/auth/subjects.js';

export function issueReference(issue: { iid: number }, project: Pick<ProjectRow, 'id' | 'full_path'>, from: Pick<ProjectRow, 'id'>): string {
  return Number(project.id) === Number(from.id) ? `#${issue.iid}` : `${project.full_path}#${issue.iid}`;
}
