// The alert an incident was created from, for the incident's page. Read here rather than through
// alerts/api.ts because alerts already depends on issues (it opens incidents): a cycle otherwise.
import type { Deps } from '../../platform/deps.js';

export async function linkedAlertOf(deps: Deps, issueId: number): Promise<{ iid: number; title: string; status: number } | undefined> {
  return deps.db.selectFrom('alert_management_alerts').select(['iid', 'title', 'status']).where('issue_id', '=', issueId).orderBy('id', 'asc').executeTakeFirst();
}
