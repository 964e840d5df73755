// The project's webhook settings (GitLab's /-/hooks: add, edit, test, recent deliveries with the request
// and response and a resend button) and its Slack integration page under Integrations. Each form post
// calls the same actions as the REST API; CSRF is the page kit's.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { namespacedPage, csrfField, type PageContext } from '../platform/web/page-route.js';
import { actionFailure, formField, hookForm, hookFormInput, type HookFormKind } from './hook-form.js';
import { page, redirect } from '../platform/web/page.js';
import { html } from '../platform/web/html.js';
import { FIRED_FLAGS, alertStatus, type FiredFlag } from './model.js';
import { hookFlags } from './entities.js';
import { findHook, hooksQuery } from './finder.js';
import { hookLogPage, recentEvents } from './hook-logs-view.js';
import { createHook, deleteHook, updateHook, type HookOwner } from './save-hook.js';
import { testOutcomeMessage, testProjectHook } from './test-hook.js';
import { resendLog } from './deliver-hook.js';
import { CHANNEL_FIELDS, CHAT_EVENT_FLAGS, slackEntity } from './slack-integration.js';
import { deleteSlack, findSlack, saveSlack } from './save-slack.js';

const HOOKS = /^(?<path>.+?)\/-\/hooks$/;
const HOOK_EDIT = /^(?<path>.+?)\/-\/hooks\/(?<id>\d+)\/edit$/;
const HOOK_LOG = /^(?<path>.+?)\/-\/hooks\/(?<id>\d+)\/hook_logs\/(?<log>\d+)$/;
const INTEGRATIONS = /^(?<path>.+?)\/-\/settings\/integrations$/;
const SLACK = /^(?<path>.+?)\/-\/settings\/integrations\/slack\/edit$/;

const FLAG_LABELS: Record<string, string> = {
  push_events: 'Push events', tag_push_events: 'Tag push events', issues_events: 'Issues events', confidential_issues_events: 'Confidential issues events',
  note_events: 'Comments', confidential_note_events: 'Confidential comments', deployment_events: 'Deployment events', merge_requests_events: 'Merge request events', releases_events: 'Releases events', alert_events: 'Alert events',
  pipeline_events: 'Pipeline events', job_events: 'Job events', wiki_page_events: 'Wiki page events',
} satisfies Record<FiredFlag | 'alert_events', string>;

/** The per-event channel field of each chat event flag. */
const CHANNEL_OF: Record<string, string> = {
  push_events: 'push_channel', issues_events: 'issue_channel', confidential_issues_events: 'confidential_issue_channel', note_events: 'note_channel',
  confidential_note_events: 'confidential_note_channel', tag_push_events: 'tag_push_channel', deployment_events: 'deployment_channel', alert_events: 'alert_channel',
};

const owner = (access: ProjectAccess): HookOwner => ({ type: 'ProjectHook', projectId: Number(access.project.id) });
const PROJECT_FORM: HookFormKind = { type: 'ProjectHook', flags: FIRED_FLAGS, labels: FLAG_LABELS, branchFilter: true };

async function renderHooks(context: PageContext, access: ProjectAccess) {
  const { deps } = context;
  const hooks = await hooksQuery(deps, owner(access)).execute();
  const base = `/${access.project.full_path}/-/hooks`;
  const now = deps.clock.now();
  const rows = hooks.map((hook) => {
    const flags = hookFlags(hook);
    const status = alertStatus(hook, now);
    return html`<li id="hook-${hook.id}"><strong>${hook.url}</strong> ${status !== 'executable' ? html`<span class="badge">${status === 'disabled' ? 'Disabled' : 'Temporarily disabled'}</span>` : ''}
      <span>${FIRED_FLAGS.filter((flag) => flags[flag]).map((flag) => FLAG_LABELS[flag]).join(', ')}</span>
      <a href="${base}/${hook.id}/edit">Edit</a>
      <form method="post" class="inline">${csrfField(context)}<input type="hidden" name="action" value="test"><input type="hidden" name="hook_id" value="${hook.id}">
        <select name="trigger" aria-label="Test event">${FIRED_FLAGS.map((flag) => html`<option value="${flag}">${FLAG_LABELS[flag]}</option>`)}</select><button type="submit">Test</button></form>
      <form method="post" class="inline">${csrfField(context)}<input type="hidden" name="action" value="delete"><input type="hidden" name="hook_id" value="${hook.id}"><button type="submit" class="danger">Delete</button></form>
    </li>`;
  });
  return page({
    title: 'Webhooks',
    body: html`<p>Webhooks send a POST request to a URL when an event happens in this project.</p>
      <h2>Add new webhook</h2>${hookForm(context, PROJECT_FORM, null, 'Add webhook')}
      <h2>Project hooks (${hooks.length})</h2>${hooks.length ? html`<ul class="hooks">${rows}</ul>` : html`<p>No webhooks enabled. Select trigger events above.</p>`}`,
  });
}

async function handleHooksPost(context: PageContext, access: ProjectAccess, back: string) {
  const { deps, form } = context;
  const hookId = Number(formField(form, 'hook_id'));
  try {
    switch (formField(form, 'action')) {
      case 'create':
        await createHook(deps, owner(access), hookFormInput(form, PROJECT_FORM));
        return redirect(back, 'Webhook created');
      case 'update':
        await updateHook(deps, await findHook(deps, owner(access), hookId), hookFormInput(form, PROJECT_FORM));
        return redirect(back, 'Webhook updated');
      case 'delete':
        await deleteHook(deps, await findHook(deps, owner(access), hookId));
        return redirect(back, 'Webhook deleted');
      case 'test': {
        const hook = await findHook(deps, owner(access), hookId);
        return redirect(back, testOutcomeMessage(await testProjectHook(deps, hook, Number(access.project.id), context.user.id, formField(form, 'trigger'))).message);
      }
      case 'resend': {
        const hook = await findHook(deps, owner(access), hookId);
        const outcome = await resendLog(deps, hook, Number(formField(form, 'log_id')));
        return redirect(`/${access.project.full_path}/-/hooks/${hookId}/edit`, outcome ? testOutcomeMessage(outcome).message : 'Not found');
      }
      default:
        return redirect(back, 'Unknown action');
    }
  } catch (error) {
    return redirect(back, actionFailure(error));
  }
}

async function renderHookEdit(context: PageContext, access: ProjectAccess) {
  const { deps } = context;
  const hook = await findHook(deps, owner(access), Number(context.match.id));
  const events = await recentEvents(deps, hook, `/${access.project.full_path}/-/hooks/${hook.id}`);
  return page({ title: 'Edit webhook', body: html`${hookForm(context, PROJECT_FORM, hook, 'Save changes')}
      ${events}` });
}

async function renderHookLog(context: PageContext, access: ProjectAccess) {
  const hook = await findHook(context.deps, owner(access), Number(context.match.id));
  return hookLogPage(context, hook, Number(context.match.log), `/${access.project.full_path}/-/hooks`);
}

async function renderSlack(context: PageContext, access: ProjectAccess) {
  const entity = slackEntity(await findSlack(context.deps, Number(access.project.id)));
  const props = entity.properties as Record<string, string | boolean>;
  return page({
    title: 'Slack notifications',
    body: html`<p>Send notifications about project events to Slack (or Mattermost) through an incoming webhook.</p>
      <form method="post" class="stack">${csrfField(context)}<input type="hidden" name="action" value="save">
        <label><input type="checkbox" name="active" value="1" ${entity.active ? html`checked` : ''}> Active</label>
        <label>Webhook <input type="url" name="webhook" autocomplete="off" placeholder="${entity.active ? 'Leave blank to keep the current webhook' : 'https://hooks.slack.com/services/…'}"></label>
        <label>Username <input name="username" value="${String(props.username)}"></label>
        <label>Default channel <input name="channel" value="${String(props.channel)}"></label>
        <fieldset><legend>Trigger</legend>
        ${Object.keys(CHAT_EVENT_FLAGS).map((flag) => {
          const channelField = CHANNEL_OF[flag];
          return html`<label><input type="checkbox" name="${flag}" value="1" ${(entity as Record<string, unknown>)[flag] ? html`checked` : ''}> ${FLAG_LABELS[flag]}</label>
            <label>Channel <input name="${channelField}" value="${String(props[channelField] ?? '')}"></label>`;
        })}
        </fieldset>
        <button type="submit">Save changes</button>
      </form>
      ${entity.active ? html`<form method="post">${csrfField(context)}<input type="hidden" name="action" value="delete"><button type="submit" class="danger">Reset</button></form>` : ''}`,
  });
}

async function handleSlackPost(context: PageContext, access: ProjectAccess) {
  const { deps, form } = context;
  const back = `/${access.project.full_path}/-/settings/integrations/slack/edit`;
  try {
    if (formField(form, 'action') === 'delete') {
      await deleteSlack(deps, Number(access.project.id));
      return redirect(back, 'Slack notifications settings reset.');
    }
    const webhook = formField(form, 'webhook');
    await saveSlack(deps, Number(access.project.id), {
      webhook: webhook === '' ? undefined : webhook,
      username: formField(form, 'username'),
      channel: formField(form, 'channel'),
      active: formField(form, 'active') === '1',
      flags: Object.fromEntries(Object.keys(CHAT_EVENT_FLAGS).map((flag) => [flag, formField(form, flag) === '1'])),
      channels: Object.fromEntries(CHANNEL_FIELDS.filter((name) => typeof form[name] === 'string').map((name) => [name, formField(form, name)])),
    });
    return redirect(back, 'Slack notifications settings saved and active.');
  } catch (error) {
    return redirect(back, actionFailure(error));
  }
}

export function webhookPages(app: FastifyInstance, deps: Deps): void {
  const hooks = { project: 'admin_webhook' } as const;
  const integrations = { project: 'admin_integrations' } as const;
  namespacedPage(app, deps, { method: 'GET', pattern: HOOKS, ability: hooks, handler: async (context) => renderHooks(context, await context.project()) });
  namespacedPage(app, deps, {
    method: 'POST', pattern: HOOKS, ability: hooks,
    handler: async (context) => {
      const access = await context.project();
      return handleHooksPost(context, access, `/${access.project.full_path}/-/hooks`);
    },
  });
  namespacedPage(app, deps, { method: 'GET', pattern: HOOK_EDIT, ability: hooks, handler: async (context) => renderHookEdit(context, await context.project()) });
  namespacedPage(app, deps, { method: 'GET', pattern: HOOK_LOG, ability: hooks, handler: async (context) => renderHookLog(context, await context.project()) });
  namespacedPage(app, deps, {
    method: 'GET', pattern: INTEGRATIONS, ability: integrations,
    handler: async (context) => {
      const access = await context.project();
      const slack = slackEntity(await findSlack(deps, Number(access.project.id)));
      return page({ title: 'Integrations', body: html`<table><thead><tr><th>Integration</th><th>Status</th></tr></thead><tbody><tr><td><a href="/${access.project.full_path}/-/settings/integrations/slack/edit">Slack notifications</a></td><td>${slack.active ? 'Active' : 'Not active'}</td></tr></tbody></table>` });
    },
  });
  namespacedPage(app, deps, { method: 'GET', pattern: SLACK, ability: integrations, handler: async (context) => renderSlack(context, await context.project()) });
  namespacedPage(app, deps, { method: 'POST', pattern: SLACK, ability: integrations, handler: async (context) => handleSlackPost(context, await context.project()) });
}
