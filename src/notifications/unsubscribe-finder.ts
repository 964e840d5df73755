// The issue an unsubscribe link names, with its reference as GitLab writes it (`group/project#iid`).
import type { Deps } from '../platform/deps.js';

/** Null when the issue is gone. */
export async function issueWithReference(deps: Deps, issueId: number) {
  const issue = await deps.db.selectFrom('issues').selectAll().where('id', '=', issueId).executeTakeFirst();
  if (!issue) return null;
  const project = await deps.db.selectFrom('projects').select(['full_path']).where('id', '=', issue.project_id).executeTakeFirstOrThrow();
  return { issue, reference: `${project.full_path}#${issue.iid}` };
}
