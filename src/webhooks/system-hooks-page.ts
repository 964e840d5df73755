// /admin/hooks (GitLab's Admin › System hooks): every system hook with its URL, its triggers and whether
// SSL is verified; the form for a new one (hook-form.ts, shared with the project's hooks page), editing
// with the hook's recent events (a page per delivery, resend), deleting, and Test with one of the system
// triggers (GitLab's TestHooks::SystemService, test-hook.ts), showing the receiver's answer; the API's
// POST /hooks/:id keeps its fixed project_create sample. Administrators only: the page kit answers 404
// to everyone else, as GitLab's admin area does.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { csrfField, pageRoute, type PageContext } from '../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../platform/web/page.js';
import { html } from '../platform/web/html.js';
import { SYSTEM_HOOK_FLAGS, alertStatus } from './model.js';
import { hookFlags, type HookRow } from './entities.js';
import { findHook, hooksQuery } from './finder.js';
import { createHook, deleteHook, updateHook, type HookOwner } from './save-hook.js';
import { SYSTEM_TEST_TRIGGERS, testOutcomeMessage, testSystemHookWith, type SystemTestTrigger } from './test-hook.js';
import { hookLogPage, recentEvents } from './hook-logs-view.js';
import { resendLog } from './deliver-hook.js';
import { actionFailure, formField, hookForm, hookFormInput, type HookFormKind } from './hook-form.js';

const ADMIN = { instance: 'admin_all_resources' } as const;
export const SYSTEM_HOOKS_URL = '/admin/hooks';
const SYSTEM: HookOwner = { type: 'SystemHook' };
const SYSTEM_FORM: HookFormKind = {
  type: 'SystemHook',
  flags: SYSTEM_HOOK_FLAGS,
  labels: { repository_update_events: 'Repository update events', push_events: 'Push events', tag_push_events: 'Tag push events', merge_requests_events: 'Merge request events' },
  branchFilter: false,
};
const TEST_EVENTS = Object.keys(SYSTEM_TEST_TRIGGERS) as SystemTestTrigger[];

/** The trigger a Test names; none (a form without the select) is a push, as GitLab's default. */
function testTrigger(value: string): SystemTestTrigger | null {
  if (value === '') return 'push_events';
  return TEST_EVENTS.find((trigger) => trigger === value) ?? null;
}

function hookItem(context: PageContext, hook: HookRow, now: number) {
  const flags = hookFlags(hook);
  const status = alertStatus(hook, now);
  const triggers = ['System events', ...SYSTEM_FORM.flags.filter((flag) => flags[flag]).map((flag) => SYSTEM_FORM.labels[flag])].join(', ');
  const post = (action: string, label: string, kind: string, extra: ReturnType<typeof html> = html``) =>
    html`<form method="post" action="${SYSTEM_HOOKS_URL}" class="inline">${csrfField(context)}<input type="hidden" name="action" value="${action}"><input type="hidden" name="hook_id" value="${hook.id}">${extra}<button type="submit" class="small${kind}">${label}</button></form>`;
  const events = html`<select name="trigger" aria-label="Test event for ${hook.url}">${TEST_EVENTS.map((trigger) => html`<option value="${trigger}">${SYSTEM_FORM.labels[trigger]}</option>`)}</select> `;
  return html`<li id="hook-${hook.id}" data-hook="${hook.id}">
    <h3 class="wrap-anywhere">${hook.url}${hook.name ? html` <span class="muted">${hook.name}</span>` : ''}${status !== 'executable' ? html` <span class="badge">${status === 'disabled' ? 'Disabled' : 'Temporarily disabled'}</span>` : ''}</h3>
    <p>${triggers}</p>
    <p class="muted">SSL verification: ${hook.enable_ssl_verification === 1 ? 'enabled' : 'disabled'}</p>
    <p><a href="${SYSTEM_HOOKS_URL}/${hook.id}/edit">Edit</a> ${post('test', 'Test', ' secondary', events)} ${post('delete', 'Delete', ' danger')}</p>
  </li>`;
}

async function renderSystemHooks(context: PageContext): Promise<PageOutcome> {
  const { deps } = context;
  const hooks = await hooksQuery(deps, SYSTEM).execute();
  const now = deps.clock.now();
  return page({
    title: 'System hooks',
    body: html`<p class="muted">System hooks are sent a POST request on events of the whole instance, such as a project or user created, and on the extra triggers ticked.</p>
      <h2>Add new system hook</h2>${hookForm(context, SYSTEM_FORM, null, 'Add system hook', SYSTEM_HOOKS_URL)}
      <h2>System hooks (${hooks.length})</h2>
      ${hooks.length ? html`<ul class="plain" id="system-hooks">${hooks.map((hook) => hookItem(context, hook, now))}</ul>` : html`<p class="empty">No system hooks.</p>`}`,
  });
}

async function renderSystemHookEdit(context: PageContext): Promise<PageOutcome> {
  const hook = await findHook(context.deps, SYSTEM, Number(context.params.id));
  const events = await recentEvents(context.deps, hook, `${SYSTEM_HOOKS_URL}/${hook.id}`);
  return page({ title: 'Edit system hook', body: html`${hookForm(context, SYSTEM_FORM, hook, 'Save changes', SYSTEM_HOOKS_URL)}<p><a href="${SYSTEM_HOOKS_URL}">Back to system hooks</a></p>${events}` });
}

async function renderSystemHookLog(context: PageContext): Promise<PageOutcome> {
  const { id, log } = context.params as { id: string; log: string };
  const hook = await findHook(context.deps, SYSTEM, Number(id));
  return hookLogPage(context, hook, Number(log), SYSTEM_HOOKS_URL);
}

async function handleSystemHooksPost(context: PageContext): Promise<PageOutcome> {
  const { deps, form } = context;
  const hookId = Number(formField(form, 'hook_id'));
  try {
    switch (formField(form, 'action')) {
      case 'create':
        await createHook(deps, SYSTEM, hookFormInput(form, SYSTEM_FORM));
        return redirect(SYSTEM_HOOKS_URL, 'System hook was successfully created.');
      case 'update':
        await updateHook(deps, await findHook(deps, SYSTEM, hookId), hookFormInput(form, SYSTEM_FORM));
        return redirect(SYSTEM_HOOKS_URL, 'System hook was successfully updated.');
      case 'delete':
        await deleteHook(deps, await findHook(deps, SYSTEM, hookId));
        return redirect(SYSTEM_HOOKS_URL, 'System hook was successfully deleted.');
      case 'test': {
        const trigger = testTrigger(formField(form, 'trigger'));
        if (!trigger) return redirect(SYSTEM_HOOKS_URL, 'Testing not available for this hook');
        return redirect(SYSTEM_HOOKS_URL, testOutcomeMessage(await testSystemHookWith(deps, await findHook(deps, SYSTEM, hookId), context.user.id, trigger)).message);
      }
      case 'resend': {
        const outcome = await resendLog(deps, await findHook(deps, SYSTEM, hookId), Number(formField(form, 'log_id')));
        return redirect(`${SYSTEM_HOOKS_URL}/${hookId}/edit`, outcome ? testOutcomeMessage(outcome).message : 'Not found');
      }
      default:
        return redirect(SYSTEM_HOOKS_URL, 'Unknown action');
    }
  } catch (error) {
    return redirect(SYSTEM_HOOKS_URL, actionFailure(error));
  }
}

export function systemHookPages(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, { method: 'GET', url: SYSTEM_HOOKS_URL, ability: ADMIN, handler: renderSystemHooks });
  pageRoute(app, deps, { method: 'POST', url: SYSTEM_HOOKS_URL, ability: ADMIN, handler: handleSystemHooksPost });
  pageRoute(app, deps, { method: 'GET', url: `${SYSTEM_HOOKS_URL}/:id/edit`, ability: ADMIN, handler: renderSystemHookEdit });
  pageRoute(app, deps, { method: 'GET', url: `${SYSTEM_HOOKS_URL}/:id/hook_logs/:log`, ability: ADMIN, handler: renderSystemHookLog });
}
