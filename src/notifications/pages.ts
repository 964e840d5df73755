// The profile page `/profile/notifications` (specification, Notification settings; GitLab's
// Profile > Notifications): the global level and e-mail, and the level for each group and project the
// user belongs to, with the custom events as checkboxes (they take effect with the `custom` level).
// One form per source, each posting back here with the source it changes.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import type { AuthUser, Principal } from '../platform/auth/principal.js';
import { ValidationError } from '../platform/errors.js';
import { findGroup, findProject, findUser } from '../accounts/api.js';
import { html, type Html } from '../platform/web/html.js';
import { csrfField, pageRoute, type PageContext } from '../platform/web/page-route.js';
import { page, redirect } from '../platform/web/page.js';
import { emailEventsFor, isLevel, LEVELS, type EmailEvent } from './vocabulary.js';
import { defaultSetting, GLOBAL_SOURCE, userNotificationSettings, type NotificationSettingRow, type NotificationSource } from './finder.js';
import { updateNotificationSetting } from './update-notification-setting.js';
import { notificationSources } from './sources-finder.js';

const PATH = '/profile/notifications';
/** The page lists at most this many groups and projects (bounded lists, docs/architecture.md). */
const LIST_LIMIT = 200;

const LEVEL_LABELS: Record<string, string> = {
  global: 'Global', watch: 'Watch', participating: 'Participate', mention: 'On mention', disabled: 'Disabled', custom: 'Custom',
};

function principalOf(user: AuthUser): Principal {
  return { user, scopes: [], via: 'session', tokenId: null };
}

interface SourceView {
  source: NotificationSource;
  key: string;
  name: string;
  setting: NotificationSettingRow;
}

/** The user's groups and projects (sources-finder.ts), each with its stored setting or the default. */
async function memberSources(deps: Deps, userId: number, settings: NotificationSettingRow[]): Promise<{ groups: SourceView[]; projects: SourceView[] }> {
  const stored = new Map(settings.map((row) => [`${row.source_type}:${row.source_id}`, row]));
  const view = (type: 'Namespace' | 'Project', id: number, name: string): SourceView => {
    const source: NotificationSource = { type, id };
    return { source, key: `${type === 'Namespace' ? 'group' : 'project'}-${id}`, name, setting: stored.get(`${type}:${id}`) ?? defaultSetting(userId, source) };
  };
  const { groups, projects } = await notificationSources(deps, userId, LIST_LIMIT);
  return {
    groups: groups.map((row) => view('Namespace', row.id, row.full_path)),
    projects: projects.map((row) => view('Project', row.id, row.full_path)),
  };
}

function levelSelect(id: string, current: string, allowGlobal: boolean): Html {
  const levels = LEVELS.filter((level) => allowGlobal || level !== 'global');
  return html`<select name="level" id="${id}">${levels.map((level) => html`<option value="${level}" ${level === current ? html`selected` : ''}>${LEVEL_LABELS[level]}</option>`)}</select>`;
}

function eventBoxes(key: string, setting: NotificationSettingRow, events: EmailEvent[]): Html {
  return html`<fieldset class="events"><legend>Custom notification events (used with the Custom level)</legend>
${events.map((name) => html`<label><input type="checkbox" name="${name}" value="1" id="${key}-${name}" ${Number(setting[name]) === 1 ? html`checked` : ''}> ${name.replace(/_/g, ' ')}</label>`)}
</fieldset>`;
}

/**
 * One compact row per group or project (issue 16: the page was ~6,000 px tall with every source's
 * checkboxes open): name, level and save on one line, the custom events behind a disclosure that is
 * open when the level is Custom.
 */
function sourceForm(context: PageContext, view: SourceView, events: EmailEvent[]): Html {
  return html`<form method="post" action="${PATH}" class="notification-source notification-row" id="form-${view.key}">
  ${csrfField(context)}
  <input type="hidden" name="source" value="${view.key}">
  <label for="level-${view.key}" class="source-name">${view.name}</label>
  ${levelSelect(`level-${view.key}`, view.setting.level, true)}
  <button type="submit" class="secondary">Save<span class="visually-hidden"> ${view.name}</span></button>
  <details${view.setting.level === 'custom' ? html` open` : ''}><summary>Custom events</summary>${eventBoxes(view.key, view.setting, events)}</details>
</form>`;
}

async function renderPage(context: PageContext, errors: string[] = [], status = 200) {
  const { deps, user } = context;
  const tier = deps.config.tier;
  const [account, settings] = await Promise.all([findUser(deps, user.id), userNotificationSettings(deps.db, user.id)]);
  const global = settings.find((row) => row.source_type === 'Global') ?? defaultSetting(user.id, GLOBAL_SOURCE);
  const { groups, projects } = await memberSources(deps, user.id, settings);
  const email = global.notification_email ?? account.email;
  const body = html`
${errors.length ? html`<div class="error" role="alert"><p>The settings were not saved:</p><ul>${errors.map((message) => html`<li>${message}</li>`)}</ul></div>` : ''}
<p class="muted">The global level applies wherever a group or project is left at <em>Global</em>.</p>
<section>
<h2>Global notification settings</h2>
<form method="post" action="${PATH}" class="stacked" id="form-global">
  ${csrfField(context)}
  <input type="hidden" name="source" value="global">
  <label for="notification-email">Notification e-mail</label>
  <select name="notification_email" id="notification-email"><option value="${account.email}" ${email === account.email ? html`selected` : ''}>${account.email}</option></select>
  <label for="level-global">Global notification level</label>
  ${levelSelect('level-global', global.level, global.level === 'global')}
  ${eventBoxes('global', global, emailEventsFor('Global', tier))}
  <p><button type="submit">Save global settings</button></p>
</form>
</section>
<section>
<h2>Groups (${groups.length})</h2>
${groups.length ? groups.map((view) => sourceForm(context, view, emailEventsFor('Namespace', tier))) : html`<p class="muted">You are not a member of any group.</p>`}
</section>
<section>
<h2>Projects (${projects.length})</h2>
${projects.length ? projects.map((view) => sourceForm(context, view, emailEventsFor('Project', tier))) : html`<p class="muted">You are not a member of any project.</p>`}
</section>`;
  return page({ title: 'Notifications', body, status });
}

/** `global`, `group-<id>` or `project-<id>`, resolved to a source the user can read (404 page otherwise). */
async function sourceOf(deps: Deps, user: AuthUser, key: string): Promise<NotificationSource> {
  if (key === 'global') return GLOBAL_SOURCE;
  const match = /^(group|project)-(\d+)$/.exec(key);
  if (match?.[1] === 'group') return { type: 'Namespace', id: Number((await findGroup(deps, principalOf(user), match[2], 'read_notification_setting')).group.id) };
  return { type: 'Project', id: Number((await findProject(deps, principalOf(user), match?.[2] ?? '0', 'read_notification_setting')).project.id) };
}

export function notificationPages(app: FastifyInstance, deps: Deps): void {
  // The user's own settings; each group or project a form names is checked on its own (sourceOf).
  pageRoute(app, deps, { method: 'GET', url: PATH, ability: { instance: 'log_in' }, handler: (context) => renderPage(context) });

  pageRoute(app, deps, {
    method: 'POST',
    url: PATH,
    ability: { instance: 'log_in' },
    handler: async (context) => {
      const field = (name: string) => (typeof context.form[name] === 'string' ? (context.form[name] as string) : undefined);
      const source = await sourceOf(deps, context.user, field('source') ?? '');
      const level = field('level') ?? '';
      if (!isLevel(level)) return renderPage(context, [`'${level}' is not a valid level`], 422);
      // Every checkbox of the form is sent when checked and absent when not: all events are set.
      const events = Object.fromEntries(emailEventsFor(source.type, deps.config.tier).map((name) => [name, field(name) !== undefined]));
      try {
        await updateNotificationSetting(deps, principalOf(context.user), { source, level, events, notificationEmail: source.type === 'Global' ? field('notification_email') : undefined });
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        return renderPage(context, Object.entries(error.fields).flatMap(([name, messages]) => messages.map((message) => `${name.replace(/_/g, ' ')} ${message}`)), 422);
      }
      return redirect(PATH, 'Notification settings saved.');
    },
  });
}
