// /admin/broadcast_messages (GitLab's Admin › Messages): every message with its state and a preview in
// its theme, the form for a new one, editing and deleting; the forms write through the same checks as
// the API, and a refused form comes back as typed with each error beside its field. And the dismiss
// button of a banner or notification: a cookie that hides that message in this browser until it ends.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { html, raw, type Html } from '../platform/web/html.js';
import { csrfField, pageRoute, type PageContext } from '../platform/web/page-route.js';
import { fragment, page, redirect, safeReturnTo, type PageOutcome } from '../platform/web/page.js';
import { NotFoundError, ParamError, RecordNotFoundError, ValidationError } from '../platform/errors.js';
import { setCookie } from '../platform/http/cookies.js';
import { isoTime } from '../platform/clock.js';
import {
  BROADCAST_TYPES, TARGET_ACCESS_LEVELS, THEMES, accessLevelsOf, broadcastMessagesQuery, createBroadcastMessage, deleteBroadcastMessage, findBroadcastMessage, isActive,
  updateBroadcastMessage, type BroadcastMessageInput, type BroadcastMessageRow,
} from './messages.js';
import { DISMISS_URL, dismissCookie } from './banner.js';

const ADMIN = { instance: 'admin_all_resources' } as const;
const URL = '/admin/broadcast_messages';
const SHOWN = 100;
const LEVEL_NAMES: Record<number, string> = { 10: 'Guest', 20: 'Reporter', 30: 'Developer', 40: 'Maintainer', 50: 'Owner' };
const HOUR_MS = 3_600_000;

/** The form as typed: text fields, the ticked roles and the dismissable box. */
interface Typed {
  message: string;
  broadcast_type: string;
  theme: string;
  dismissable: boolean;
  target_path: string;
  target_access_levels: string[];
  starts_at: string;
  ends_at: string;
}
type Errors = Record<string, string[]>;

/** `YYYY-MM-DDTHH:MM` in UTC, as a datetime-local input holds it. */
function localInput(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16);
}

function typedOf(row: BroadcastMessageRow): Typed {
  return {
    message: row.message, broadcast_type: row.broadcast_type, theme: row.theme, dismissable: Boolean(row.dismissable), target_path: row.target_path,
    target_access_levels: accessLevelsOf(row).map(String), starts_at: localInput(Number(row.starts_at)), ends_at: localInput(Number(row.ends_at)),
  };
}

function blank(deps: Deps): Typed {
  const now = deps.clock.now();
  return { message: '', broadcast_type: 'banner', theme: 'indigo', dismissable: false, target_path: '', target_access_levels: [], starts_at: localInput(now), ends_at: localInput(now + HOUR_MS) };
}

function text(form: Record<string, string | string[]>, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value : '';
}

function typedFrom(form: Record<string, string | string[]>): Typed {
  const levels = form.target_access_levels;
  return {
    message: text(form, 'message'), broadcast_type: text(form, 'broadcast_type'), theme: text(form, 'theme'), dismissable: text(form, 'dismissable') === '1',
    target_path: text(form, 'target_path'), target_access_levels: Array.isArray(levels) ? levels : levels ? [levels] : [], starts_at: text(form, 'starts_at'), ends_at: text(form, 'ends_at'),
  };
}

function inputOf(typed: Typed): BroadcastMessageInput {
  return { ...typed, target_access_levels: typed.target_access_levels };
}

function errorOf(errors: Errors, name: string, label: string): Html {
  return errors[name] ? html`<p class="field-error" id="${name}-error">${label} ${errors[name].join(', ')}</p>` : html``;
}

function invalid(errors: Errors, name: string): Html {
  return errors[name] ? html` aria-invalid="true" aria-describedby="${name}-error"` : html``;
}

function label(value: string): string {
  return value.split('-').map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');
}

function messageForm(context: PageContext, action: string, typed: Typed, errors: Errors, submit: string): Html {
  const select = (name: 'broadcast_type' | 'theme', title: string, options: readonly string[]) =>
    html`<label for="${name}">${title}</label><select id="${name}" name="${name}"${invalid(errors, name)}>${options.map((option) => html`<option value="${option}"${option === typed[name] ? html` selected` : ''}>${label(option)}</option>`)}</select>${errorOf(errors, name, title)}`;
  return html`<form method="post" action="${action}" class="stacked">
  ${csrfField(context)}
  <label for="message">Message</label>
  <textarea id="message" name="message" required${invalid(errors, 'message')}>${typed.message}</textarea>
  <span class="hint">Markdown: links, emphasis and code are shown; anything else is removed.</span>
  ${errorOf(errors, 'message', 'Message')}
  ${select('broadcast_type', 'Type', BROADCAST_TYPES)}
  ${select('theme', 'Theme', THEMES)}
  <p><input type="checkbox" id="dismissable" name="dismissable" value="1"${typed.dismissable ? html` checked` : ''}> <label for="dismissable">Dismissable</label> <span class="hint">Each visitor may hide a banner (notifications always may be hidden).</span></p>
  <label for="target_path">Target path</label>
  <input type="text" id="target_path" name="target_path" value="${typed.target_path}" aria-describedby="target_path-hint${errors.target_path ? ' target_path-error' : ''}"${errors.target_path ? html` aria-invalid="true"` : ''}>
  <span class="hint" id="target_path-hint">Show the message only on these pages; * matches anything (*/issues). Empty for every page.</span>
  ${errorOf(errors, 'target_path', 'Target path')}
  <fieldset id="target_access_levels"${errors.target_access_levels ? html` aria-describedby="target_access_levels-error"` : ''}><legend>Target roles</legend>
    ${TARGET_ACCESS_LEVELS.map((level) => html`<p><input type="checkbox" id="level-${level}" name="target_access_levels[]" value="${level}"${typed.target_access_levels.includes(String(level)) ? html` checked` : ''}> <label for="level-${level}">${LEVEL_NAMES[level]}</label></p>`)}
    <p class="hint">With roles ticked, the message shows only on the pages of projects and groups where the visitor has one of them.</p>
  </fieldset>
  ${errorOf(errors, 'target_access_levels', 'Target roles')}
  <label for="starts_at">Starts at (UTC)</label>
  <input type="datetime-local" id="starts_at" name="starts_at" value="${typed.starts_at}" required${invalid(errors, 'starts_at')}>
  ${errorOf(errors, 'starts_at', 'Starts at')}
  <label for="ends_at">Ends at (UTC)</label>
  <input type="datetime-local" id="ends_at" name="ends_at" value="${typed.ends_at}" required${invalid(errors, 'ends_at')}>
  ${errorOf(errors, 'ends_at', 'Ends at')}
  <p><button type="submit">${submit}</button></p>
</form>`;
}

function stateOf(row: BroadcastMessageRow, now: number): string {
  if (isActive(row, now)) return 'Active';
  return Number(row.starts_at) > now ? 'Scheduled' : 'Ended';
}

function time(ms: number): string {
  return `${(isoTime(ms) ?? '').slice(0, 16).replace('T', ' ')} UTC`;
}

async function listPage(context: PageContext, typed?: Typed, errors: Errors = {}): Promise<PageOutcome> {
  const { deps } = context;
  const rows = await broadcastMessagesQuery(deps).limit(SHOWN).execute();
  const now = deps.clock.now();
  const failed = Object.keys(errors).length > 0;
  return page({
    title: 'Broadcast messages',
    status: failed ? 400 : 200,
    body: html`
<p><a href="/admin">Admin area</a></p>
<p class="muted">Messages shown to everyone who uses the instance, as a banner above every page or a notification below it, while they are active.</p>
${
  rows.length
    ? html`<ul class="plain broadcast-list">${rows.map(
        (row) => html`<li data-broadcast="${row.id}">
  <div class="broadcast-message broadcast-preview broadcast-theme-${row.theme}"><div class="broadcast-text markdown">${raw(row.message_html)}</div></div>
  <p><span class="badge">${stateOf(row, now)}</span> ${label(row.broadcast_type)} · ${time(Number(row.starts_at))} to ${time(Number(row.ends_at))}${row.target_path ? html` · on <code>${row.target_path}</code>` : ''}${accessLevelsOf(row).length ? html` · for ${accessLevelsOf(row).map((level) => LEVEL_NAMES[level]).join(', ')}` : ''}</p>
  <p class="actions"><a class="button" href="${URL}/${row.id}/edit">Edit</a>
  <form method="post" action="${URL}/${row.id}/delete" class="inline">${csrfField(context)}<button type="submit" class="danger">Delete</button></form></p>
</li>`,
      )}</ul>`
    : html`<p class="empty">No broadcast messages yet. Write one below: it is shown from its start to its end time.</p>`
}
<h2 id="new-message">New message</h2>
${failed ? html`<p class="error" role="alert">The message was not saved: correct the fields marked below.</p>` : ''}
${messageForm(context, URL, typed ?? blank(deps), errors, 'Add broadcast message')}`,
  });
}

function editPage(context: PageContext, row: BroadcastMessageRow, typed: Typed, errors: Errors = {}): PageOutcome {
  const failed = Object.keys(errors).length > 0;
  return page({
    title: 'Edit broadcast message',
    status: failed ? 400 : 200,
    body: html`<p><a href="${URL}">All broadcast messages</a></p>
${failed ? html`<p class="error" role="alert">The message was not saved: correct the fields marked below.</p>` : ''}
${messageForm(context, `${URL}/${row.id}`, typed, errors, 'Update broadcast message')}`,
  });
}

/** The checks' refusal as errors beside the fields (a Grape refusal names its parameter first). */
function errorsOf(error: unknown): Errors | null {
  if (error instanceof ValidationError) return error.fields;
  if (error instanceof ParamError) {
    const [name, ...rest] = error.message.split(' ');
    return { [name!]: [rest.join(' ')] };
  }
  return null;
}

async function rowOf(context: PageContext): Promise<BroadcastMessageRow> {
  try {
    return await findBroadcastMessage(context.deps, Number(context.params.id));
  } catch (error) {
    if (error instanceof RecordNotFoundError) throw new NotFoundError();
    throw error;
  }
}

async function create(context: PageContext): Promise<PageOutcome> {
  const typed = typedFrom(context.form);
  try {
    await createBroadcastMessage(context.deps, inputOf(typed));
  } catch (error) {
    const errors = errorsOf(error);
    if (errors) return listPage(context, typed, errors);
    throw error;
  }
  return redirect(URL, 'The broadcast message was created.');
}

async function update(context: PageContext): Promise<PageOutcome> {
  const row = await rowOf(context);
  const typed = typedFrom(context.form);
  try {
    await updateBroadcastMessage(context.deps, Number(row.id), inputOf(typed));
  } catch (error) {
    const errors = errorsOf(error);
    if (errors) return editPage(context, row, typed, errors);
    throw error;
  }
  return redirect(URL, 'The broadcast message was updated.');
}

async function remove(context: PageContext): Promise<PageOutcome> {
  const row = await rowOf(context);
  await deleteBroadcastMessage(context.deps, Number(row.id)).catch((error: unknown) => {
    if (!(error instanceof RecordNotFoundError)) throw error;
  });
  return redirect(URL, 'The broadcast message was deleted.');
}

/** Hides the message in this browser until it ends (GitLab's hide_broadcast_message_<id> cookie). */
async function dismiss(context: PageContext): Promise<PageOutcome> {
  const back = safeReturnTo(context.form.return_to);
  const id = Number(context.params.id);
  const row = Number.isSafeInteger(id) ? await context.deps.db.selectFrom('broadcast_messages').select(['id', 'ends_at']).where('id', '=', id).executeTakeFirst() : undefined;
  if (row) {
    const seconds = Math.max(1, Math.ceil((Number(row.ends_at) - context.deps.clock.now()) / 1000));
    setCookie(context.reply, dismissCookie(id), '1', { maxAgeSeconds: seconds, secure: context.deps.config.baseUrl.startsWith('https:') });
  }
  // htmx swaps the message out for this empty answer.
  if (context.request.headers['hx-request'] === 'true') return fragment(html``);
  return redirect(back);
}

export function broadcastMessagesPages(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, { method: 'GET', url: URL, ability: ADMIN, handler: (context) => listPage(context) });
  pageRoute(app, deps, { method: 'POST', url: URL, ability: ADMIN, handler: create });
  pageRoute(app, deps, { method: 'GET', url: `${URL}/:id/edit`, ability: ADMIN, handler: async (context) => { const row = await rowOf(context); return editPage(context, row, typedOf(row)); } });
  pageRoute(app, deps, { method: 'POST', url: `${URL}/:id`, ability: ADMIN, handler: update });
  pageRoute(app, deps, { method: 'POST', url: `${URL}/:id/delete`, ability: ADMIN, handler: remove });
  pageRoute(app, deps, { method: 'POST', url: `${DISMISS_URL}/:id/dismiss`, ability: { instance: 'read_instance' }, auth: 'optional', handler: dismiss });
}
