// The webhook form and what a posted one means, shared by the project's hooks page (pages.ts) and the
// admin area's system hooks page (system-hooks-page.ts): URL, name, secret token (never shown back: an
// existing one is only said to be there), the trigger checkboxes of the hook's type and SSL verification.
import type { PageContext } from '../platform/web/page-route.js';
import { csrfField } from '../platform/web/page-route.js';
import { html, type Html } from '../platform/web/html.js';
import { toApiError } from '../platform/http/error-handler.js';
import { hookFlags, type HookRow } from './entities.js';
import type { HookInput } from './hook-input.js';
import { defaultFlags } from './model.js';
import type { WebHookType } from '../platform/db/tables/webhooks.js';

export type Form = Record<string, string | string[]>;

export const formField = (form: Form, name: string) => (typeof form[name] === 'string' ? (form[name] as string) : '');

/** A failed action's message (422 url blocked, 400 …) shown as the flash instead of an error page. */
export function actionFailure(error: unknown): string {
  const apiError = toApiError(error);
  if (!apiError || apiError.status >= 500) throw error;
  const body = apiError.body as { message?: unknown; error?: unknown };
  const message = body.message ?? body.error;
  if (typeof message === 'string') return message;
  return Object.entries(message as Record<string, string[]>).map(([name, messages]) => `${name === 'url' ? 'URL' : name} ${messages.join(', ')}`).join('; ');
}

export interface HookFormKind {
  /** A new hook's form is ticked as GitLab's defaults for the type. */
  type: WebHookType;
  /** The trigger flags offered, in order, with their labels. */
  flags: readonly string[];
  labels: Record<string, string>;
  /** Project hooks filter pushes by branch; system hooks do not. */
  branchFilter: boolean;
}

export function hookForm(context: PageContext, kind: HookFormKind, row: HookRow | null, submit: string, action?: string): Html {
  const flags = row ? hookFlags(row) : defaultFlags(kind.type);
  return html`<form method="post" class="stack"${action ? html` action="${action}"` : ''}>
    ${csrfField(context)}<input type="hidden" name="action" value="${row ? 'update' : 'create'}">${row ? html`<input type="hidden" name="hook_id" value="${row.id}">` : ''}
    <label>URL <input type="url" name="url" required value="${row?.url ?? ''}"></label>
    <label>Name <input name="name" value="${row?.name ?? ''}"></label>
    <label>Secret token <input name="token" autocomplete="off" placeholder="${row?.token ? 'Unchanged' : ''}"></label>
    <fieldset><legend>Trigger</legend>
      ${kind.flags.map((flag) => html`<label><input type="checkbox" name="${flag}" value="1" ${flags[flag] ? html`checked` : ''}> ${kind.labels[flag]}</label>
      ${kind.branchFilter && flag === 'push_events' ? html`<label>Branch filter (wildcards such as <code>release/*</code>) <input name="push_events_branch_filter" value="${row?.push_events_branch_filter ?? ''}"></label>` : ''}`)}
    </fieldset>
    <label><input type="checkbox" name="enable_ssl_verification" value="1" ${!row || row.enable_ssl_verification === 1 ? html`checked` : ''}> Enable SSL verification</label>
    <button type="submit">${submit}</button>
  </form>`;
}

/** The posted form as the actions' input; an empty secret token keeps the stored one. */
export function hookFormInput(form: Form, kind: HookFormKind): HookInput {
  const token = formField(form, 'token');
  return {
    url: formField(form, 'url'),
    name: formField(form, 'name'),
    token: token === '' ? undefined : token,
    enableSslVerification: formField(form, 'enable_ssl_verification') === '1',
    flags: Object.fromEntries(kind.flags.map((flag) => [flag, formField(form, flag) === '1'])),
    ...(kind.branchFilter ? { branchFilter: formField(form, 'push_events_branch_filter') } : {}),
  };
}
