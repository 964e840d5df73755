// What the deliveries of one job leave behind, written in batches: their logs (the settings page's
// "Recent events") in one insert, and GitLab's auto-disabling (model.ts) in one update for the hooks
// that recovered and one for the hooks that failed. A job with 20 hooks that all answer 2xx writes
// one statement.
import type { Deps } from '../platform/deps.js';
import type { HookRow } from './entities.js';
import { afterFailure, HEALTHY, MAX_FAILURES } from './model.js';

/** One request to one hook and what came back (null status: it never answered). */
export interface Exchange {
  hook: HookRow;
  trigger: string;
  requestHeaders: Record<string, string>;
  requestBody: string;
  status: number | null;
  responseHeaders: Record<string, string>;
  responseBody: string;
  message: string | null;
  /** Seconds. */
  duration: number;
  idempotencyKey: string;
}

/** Logs per insert: well under SQLite's bound on parameters, however many hooks an event has. */
const LOGS_PER_INSERT = 200;

const succeeded = (exchange: Exchange) => exchange.status !== null && exchange.status >= 200 && exchange.status < 300;

/** Log the exchanges and apply their outcomes to their hooks; answers the log ids, in order. */
export async function recordExchanges(deps: Deps, exchanges: Exchange[]): Promise<number[]> {
  const now = deps.clock.now();
  const ids: number[] = [];
  for (let start = 0; start < exchanges.length; start += LOGS_PER_INSERT) {
    const rows = exchanges.slice(start, start + LOGS_PER_INSERT).map((exchange) => ({
      web_hook_id: exchange.hook.id,
      trigger: exchange.trigger,
      url: exchange.hook.url,
      // The token is a secret: the log shows it masked, as GitLab's does.
      request_headers: JSON.stringify(exchange.hook.token ? { ...exchange.requestHeaders, 'X-Gitlab-Token': '[REDACTED]' } : exchange.requestHeaders),
      request_data: exchange.requestBody,
      response_headers: JSON.stringify(exchange.responseHeaders),
      response_body: exchange.responseBody,
      response_status: exchange.status === null ? 'internal error' : String(exchange.status),
      execution_duration: exchange.duration,
      internal_error_message: exchange.message,
      idempotency_key: exchange.idempotencyKey,
      created_at: now,
    }));
    const inserted = await deps.db.insertInto('web_hook_logs').values(rows).returning('id').execute();
    ids.push(...inserted.map((row) => Number(row.id)));
  }
  await recordOutcomes(deps, exchanges, now);
  return ids;
}

/** GitLab's enable! / backoff!: a success clears the failures, a failure counts and may disable. */
async function recordOutcomes(deps: Deps, exchanges: Exchange[], now: number): Promise<void> {
  const recovered = new Set<number>();
  const failed = new Set<number>();
  for (const exchange of exchanges) {
    const { hook } = exchange;
    if (!succeeded(exchange)) failed.add(hook.id);
    else if (Number(hook.recent_failures) !== 0 || Number(hook.backoff_count) !== 0 || hook.disabled_until !== null) recovered.add(hook.id);
  }
  if (recovered.size > 0) await deps.db.updateTable('web_hooks').set(HEALTHY).where('id', 'in', [...recovered]).execute();
  if (failed.size === 0) return;
  // Deliveries to one hook may run concurrently (several jobs, several nodes): each failure is
  // counted by an atomic increment, and the count it produced decides whether this failure backs the
  // hook off (afterFailure's rule).
  const counted = await deps.db
    .updateTable('web_hooks')
    .set((eb) => ({ recent_failures: eb('recent_failures', '+', 1) }))
    .where('id', 'in', [...failed])
    .where('recent_failures', '<', MAX_FAILURES)
    .returning(['id', 'recent_failures', 'backoff_count', 'disabled_until'])
    .execute();
  for (const row of counted) await backOffIfDue(deps, row, now);
}

/** Past the threshold a failure backs the hook off: one more backoff, and the time it lasts from it. */
async function backOffIfDue(deps: Deps, counted: { id: number; recent_failures: number; backoff_count: number; disabled_until: number | null }, now: number): Promise<void> {
  const before = { ...counted, recent_failures: Number(counted.recent_failures) - 1 };
  if (Number(afterFailure(before, now).backoff_count) === Number(counted.backoff_count)) return;
  const backedOff = await deps.db
    .updateTable('web_hooks')
    .set((eb) => ({ backoff_count: eb('backoff_count', '+', 1) }))
    .where('id', '=', counted.id)
    .returning('backoff_count')
    .executeTakeFirstOrThrow();
  const again = afterFailure({ recent_failures: before.recent_failures, backoff_count: Number(backedOff.backoff_count) - 1, disabled_until: null }, now);
  await deps.db.updateTable('web_hooks').set({ disabled_until: again.disabled_until }).where('id', '=', counted.id).execute();
}
