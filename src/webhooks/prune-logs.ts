// Recent deliveries are kept 7 days (GitLab's web_hook_logs retention); a daily job drops older ones.
import type { Deps } from '../platform/deps.js';
import { DAY_MS } from '../platform/clock.js';

export const JOB_PRUNE_HOOK_LOGS = 'webhooks.prune_logs';
export const HOOK_LOG_RETENTION_MS = 7 * DAY_MS;

export async function pruneHookLogs(deps: Deps): Promise<number> {
  const result = await deps.db.deleteFrom('web_hook_logs').where('created_at', '<', deps.clock.now() - HOOK_LOG_RETENTION_MS).executeTakeFirst();
  return Number(result.numDeletedRows);
}
