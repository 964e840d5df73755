// A hook's deliveries as its edit page shows them (GitLab's "Recent events": status, trigger, elapsed
// and request time, a page per delivery with the request and the response and a Resend button), for
// project hooks and system hooks alike. On narrow screens the times are left out (a delivery's page has them).
// The request and response blocks scroll sideways, so they take the keyboard focus (axe: scrollable-region-focusable).
import type { Deps } from '../platform/deps.js';
import { csrfField, type PageContext } from '../platform/web/page-route.js';
import { page, type PageOutcome } from '../platform/web/page.js';
import { html, type Html } from '../platform/web/html.js';
import type { HookRow } from './entities.js';
import { recentLogsQuery } from './finder.js';

const SHOWN = 20;

/** The edit page's section; `base` is the hook's address (`…/hooks/<id>`), its deliveries under `hook_logs/`. */
export async function recentEvents(deps: Deps, hook: HookRow, base: string): Promise<Html> {
  const logs = await recentLogsQuery(deps, Number(hook.id)).limit(SHOWN).execute();
  return html`<h2>Recent events</h2>
      <p>GitLab events trigger webhooks. Use the request details of a webhook to help troubleshoot problems. Events are kept 7 days.</p>
      ${logs.length === 0 ? html`<p>No recent events.</p>` : html`<table id="recent-events"><thead><tr><th>Status</th><th>Trigger</th><th class="wide-only">Elapsed time</th><th class="wide-only">Request time</th><th><span class="visually-hidden">Details</span></th></tr></thead><tbody>
        ${logs.map((log) => html`<tr data-log="${log.id}"><td>${log.response_status}</td><td>${log.trigger}</td><td class="wide-only">${Number(log.execution_duration).toFixed(2)} sec</td><td class="wide-only">${new Date(Number(log.created_at)).toISOString()}</td><td><a href="${base}/hook_logs/${log.id}">View details</a></td></tr>`)}
      </tbody></table>`}`;
}

/** One delivery of `hook`; the Resend button posts `action=resend` with the hook and log ids to `resendAction`. */
export async function hookLogPage(context: PageContext, hook: HookRow, logId: number, resendAction: string): Promise<PageOutcome> {
  const log = Number.isSafeInteger(logId) ? await recentLogsQuery(context.deps, Number(hook.id)).where('id', '=', logId).executeTakeFirst() : undefined;
  if (!log) return page({ title: 'Request details', status: 404, body: html`<p>This event is no longer kept.</p>` });
  const pretty = (text: string) => JSON.stringify(JSON.parse(text), null, 2);
  return page({
    title: 'Request details',
    body: html`<form method="post" action="${resendAction}">${csrfField(context)}<input type="hidden" name="action" value="resend"><input type="hidden" name="hook_id" value="${hook.id}"><input type="hidden" name="log_id" value="${log.id}"><button type="submit">Resend Request</button></form>
      <dl><dt>Response status</dt><dd>${log.response_status}</dd><dt>Trigger</dt><dd>${log.trigger}</dd><dt>Elapsed time</dt><dd>${Number(log.execution_duration).toFixed(2)} sec</dd><dt>Request time</dt><dd>${new Date(Number(log.created_at)).toISOString()}</dd>
      ${log.internal_error_message ? html`<dt>Error</dt><dd class="error">${log.internal_error_message}</dd>` : ''}</dl>
      <h2>Request</h2><h3>Headers</h3><pre tabindex="0">${pretty(log.request_headers)}</pre><h3>Content</h3><pre tabindex="0">${pretty(log.request_data)}</pre>
      <h2>Response</h2><h3>Headers</h3><pre tabindex="0">${pretty(log.response_headers)}</pre><h3>Content</h3><pre tabindex="0">${log.response_body}</pre>`,
  });
}
