// "Issue due" notifications (GitLab's IssueDueSchedulerWorker and NotificationService#issue_due):
// once a day, every open issue due tomorrow (UTC) is told as an `issue.due` event, which the
// listeners turn into mail like any other issue event. Nobody acts, so the author is mailed too.
import type { Deps } from '../platform/deps.js';
import { DAY_MS } from '../platform/clock.js';
import { inTransaction } from '../platform/db/database.js';
import { daily } from '../platform/jobs/daily.js';

export const ISSUES_DUE_JOB = 'notifications.issues_due';

export async function publishIssuesDue(deps: Deps): Promise<number> {
  const tomorrow = new Date(deps.clock.now() + DAY_MS).toISOString().slice(0, 10);
  const issues = await deps.db.selectFrom('issues').select(['id', 'project_id']).where('state', '=', 'opened').where('due_date', '=', tomorrow).execute();
  if (issues.length === 0) return 0;
  await inTransaction(deps.db, async (trx) => {
    for (const issue of issues) await deps.domainEvents.publish(trx, { kind: 'issue.due', projectId: Number(issue.project_id), actorId: null, issueId: Number(issue.id) });
  });
  return issues.length;
}

export const issuesDueJob = daily(ISSUES_DUE_JOB, async (deps) => {
  await publishIssuesDue(deps);
});
