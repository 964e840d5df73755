// The application settings pages of the admin area (GitLab's Admin › Settings): General (visibility
// and access, account limits, sign-up restrictions), Network (outbound requests, rate limits) and
// Preferences (e-mail). Each section is its own form and saves through the same input rules and
// action as PUT /application/settings, so a page and the API accept and refuse the same values; a
// refused value is shown again as typed, with the error beside its field.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { html, type Html } from '../platform/web/html.js';
import { csrfField, pageRoute, type PageContext } from '../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../platform/web/page.js';
import { NotFoundError, ParamError, ValidationError } from '../platform/errors.js';
import { SETTINGS, VISIBILITIES, type ApplicationSettings, type SettingName, type ThrottleName } from './definitions.js';
import { readStoredSettings } from './read-settings.js';
import { parseSettingsInput } from './settings-input.js';
import { updateApplicationSettings } from './update-settings.js';

const ADMIN = { instance: 'admin_all_resources' } as const;
export const SETTINGS_URL = '/admin/application_settings';

interface Field {
  name: SettingName;
  label: string;
  hint?: string;
}

interface Section {
  id: string;
  title: string;
  intro: string;
  fields: Field[];
  /** Where more about the section is (another admin page). */
  link?: [string, string];
  /** Facts set outside the database (configuration), shown read-only instead of fields. */
  facts?: (deps: Deps) => Array<[string, string]>;
}

const KEY_TYPES = [
  ['rsa_key_restriction', 'RSA SSH keys'],
  ['dsa_key_restriction', 'DSA SSH keys'],
  ['ecdsa_key_restriction', 'ECDSA SSH keys'],
  ['ed25519_key_restriction', 'ED25519 SSH keys'],
  ['ecdsa_sk_key_restriction', 'ECDSA_SK SSH keys'],
  ['ed25519_sk_key_restriction', 'ED25519_SK SSH keys'],
] as const;

const TABS: Array<{ tab: string; title: string; sections: Section[] }> = [
  {
    tab: 'general',
    title: 'General',
    sections: [
      {
        id: 'visibility_access',
        title: 'Visibility and access controls',
        intro: 'The visibility new projects and groups get, the levels only administrators may use, and the SSH keys users may add.',
        fields: [
          { name: 'default_project_visibility', label: 'Default project visibility', hint: 'For a new project whose creator picks none; never more visible than its group.' },
          { name: 'default_group_visibility', label: 'Default group visibility' },
          { name: 'restricted_visibility_levels', label: 'Restricted visibility levels', hint: 'Only administrators may give a project or group a restricted level.' },
          ...KEY_TYPES.map(([name, label]) => ({ name, label })),
        ],
      },
      {
        id: 'account_limit',
        title: 'Account and limit',
        intro: 'Limits on what users store.',
        fields: [{ name: 'max_attachment_size', label: 'Maximum attachment size (MiB)', hint: 'The largest file attached to an issue, merge request or comment (1 to 100).' }],
      },
      {
        id: 'signup',
        title: 'Sign-up restrictions',
        intro: 'Whether visitors may create their own accounts, and which e-mail addresses they may use.',
        fields: [
          { name: 'signup_enabled', label: 'Sign-up enabled', hint: 'Visitors may register at /users/sign_up.' },
          { name: 'require_admin_approval_after_user_signup', label: 'Require admin approval for new sign-ups', hint: 'A new account waits, blocked, until an administrator approves it in Users.' },
          { name: 'send_user_confirmation_email', label: 'Send confirmation email on sign-up', hint: 'A new account must follow a mailed link before it can sign in.' },
          { name: 'domain_allowlist', label: 'Allowed domains for sign-ups', hint: 'One domain per line; * matches any characters (*.example.com). Empty allows every domain.' },
          { name: 'domain_denylist_enabled', label: 'Enable domain denylist for sign-ups' },
          { name: 'domain_denylist', label: 'Denied domains for sign-ups', hint: 'One domain per line; applies while the denylist is enabled.' },
        ],
      },
    ],
  },
  {
    tab: 'network',
    title: 'Network',
    sections: [
      {
        id: 'outbound',
        title: 'Outbound requests',
        intro: 'Webhooks, integrations and system hooks may not call addresses on the local network (loopback, private ranges) unless allowed here.',
        fields: [
          { name: 'allow_local_requests_from_web_hooks_and_services', label: 'Allow requests to the local network from webhooks and integrations' },
          { name: 'allow_local_requests_from_system_hooks', label: 'Allow requests to the local network from system hooks' },
          {
            name: 'outbound_local_requests_whitelist',
            label: 'Local IP addresses and domain names that hooks and integrations can access',
            hint: 'One entry per line (or separated by commas or semicolons): host names, addresses and CIDR ranges, such as 127.0.0.1 or 10.0.5.0/24. At most 1000.',
          },
        ],
      },
      {
        id: 'rate_limits',
        title: 'User and IP rate limits',
        intro: 'Requests over a limit are answered 429 with Retry-After. API requests are those under /api; web requests are the pages. Authenticated requests are counted per user, unauthenticated ones per client address.',
        fields: [
          ...throttleFields('unauthenticated_api', 'unauthenticated API request', 'per IP'),
          ...throttleFields('unauthenticated_web', 'unauthenticated web request', 'per IP'),
          ...throttleFields('authenticated_api', 'authenticated API request', 'per user'),
          ...throttleFields('authenticated_web', 'authenticated web request', 'per user'),
        ],
      },
      {
        id: 'protected_paths',
        title: 'Protected paths',
        intro: 'The sign-in form and its two-factor step, the OAuth password grant and the OAuth consent, per client address.',
        fields: throttleFields('protected_paths', 'protected paths request', 'per IP'),
      },
    ],
  },
  {
    tab: 'preferences',
    title: 'Preferences',
    sections: [
      {
        id: 'email',
        title: 'Email',
        intro: 'How messages are written and which addresses may sign up. Where outgoing mail goes is set in the server configuration (docs/operations/configuration.md). The e-mail log lists every message and its delivery.',
        fields: [
          { name: 'html_emails_enabled', label: 'Enable HTML emails', hint: 'Send each message as HTML and plain text; unticked, plain text only.' },
          { name: 'email_author_in_body', label: 'Include author name in email notification email body', hint: 'Starts a notification quoting a description or comment with its author\'s name, for mail servers that replace the sender\'s name.' },
          { name: 'commit_email_hostname', label: 'Custom hostname (for private commit emails)', hint: 'Stored for API clients; this server has no private commit e-mail addresses. Empty restores the default.' },
          { name: 'email_confirmation_setting', label: 'Email confirmation settings', hint: 'Hard: a new account must follow a mailed link before it can sign in. Soft: it can sign in for three days after sign-up, asked to confirm on every page, then as hard.' },
          { name: 'user_deactivation_emails_enabled', label: 'Enable user deactivation emails', hint: 'Stored for API clients; this server sends no deactivation e-mail.' },
          { name: 'email_restrictions_enabled', label: 'Enable email restrictions for sign ups' },
          { name: 'email_restrictions', label: 'Email restrictions for sign-ups', hint: 'A regular expression: a sign-up whose e-mail address matches it is refused, while restrictions are enabled.' },
        ],
        link: ['/admin/emails', 'Open the e-mail log'],
        facts: (deps) => [
          ['Delivery', deps.config.smtpUrl ? `SMTP server ${hostOf(deps.config.smtpUrl)}` : 'Written as .eml files under the data directory (no SMTP server configured)'],
          ['From address', deps.config.emailFrom],
          ['Sent and dead messages kept for', `${deps.config.mailRetentionDays} days`],
        ],
      },
    ],
  },
];

function throttleFields(name: ThrottleName, what: string, per: string): Field[] {
  return [
    { name: `throttle_${name}_enabled`, label: `Enable ${what} rate limit` },
    { name: `throttle_${name}_requests_per_period`, label: `Maximum ${what}s per rate limit period ${per}` },
    { name: `throttle_${name}_period_in_seconds`, label: `${capitalised(what)} rate limit period in seconds` },
  ];
}

function hostOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return 'configured';
  }
}

/** What a field shows: the typed text of a refused form, else the stored setting as form text. */
type Shown = Partial<Record<SettingName, string | string[]>>;

function shownOf(settings: ApplicationSettings): Shown {
  const shown: Shown = {};
  for (const name of Object.keys(SETTINGS) as SettingName[]) {
    const value = settings[name];
    if (Array.isArray(value)) shown[name] = SETTINGS[name].kind === 'hosts' ? value.join('\n') : (value as string[]);
    else if (typeof value === 'boolean') shown[name] = value ? '1' : '';
    else shown[name] = value === null ? '' : String(value);
  }
  return shown;
}

type Errors = Record<string, string[]>;

function errorOf(errors: Errors, name: string, label: string): Html {
  return errors[name] ? html`<p class="field-error" id="${name}-error">${label} ${errors[name].join(', ')}</p>` : html``;
}

function describedBy(errors: Errors, name: string, hinted: boolean): Html {
  const ids = [errors[name] ? `${name}-error` : '', hinted ? `${name}-hint` : ''].filter(Boolean).join(' ');
  return html`${errors[name] ? html` aria-invalid="true"` : ''}${ids ? html` aria-describedby="${ids}"` : ''}`;
}

function keyRestrictionLabel(value: number): string {
  if (value === -1) return 'Are forbidden';
  if (value === 0) return 'Are allowed';
  return `Must be ${value} bits or more`;
}

/** A select of `[value, text]` options, the shown value selected. */
function selectHtml(field: Field, options: Array<[string, string]>, value: string | string[], aria: Html, hintHtml: Html | string, errors: Errors): Html {
  const { name, label } = field;
  return html`<label for="${name}">${label}</label><select id="${name}" name="${name}"${aria}>${options.map(([option, text]) => html`<option value="${option}"${option === value ? html` selected` : ''}>${text}</option>`)}</select>${hintHtml}${errorOf(errors, name, label)}`;
}

function fieldHtml(field: Field, shown: Shown, errors: Errors): Html {
  const { name, label, hint } = field;
  const definition = SETTINGS[name];
  const value = shown[name] ?? '';
  const hintHtml = hint ? html`<span class="hint" id="${name}-hint">${hint}</span>` : '';
  const aria = describedBy(errors, name, Boolean(hint));
  switch (definition.kind) {
    case 'boolean':
      return html`<p class="setting"><input type="checkbox" id="${name}" name="${name}" value="1"${value ? html` checked` : ''}${aria}> <label for="${name}">${label}</label> ${hintHtml}</p>${errorOf(errors, name, label)}`;
    case 'visibility':
      return selectHtml(field, VISIBILITIES.map((level) => [level, capitalised(level)]), value, aria, hintHtml, errors);
    case 'visibilities': {
      const chosen = Array.isArray(value) ? value : [value];
      // A group takes no aria-invalid; its error is tied by aria-describedby.
      const ids = [errors[name] ? `${name}-error` : '', hint ? `${name}-hint` : ''].filter(Boolean).join(' ');
      return html`<fieldset id="${name}"${ids ? html` aria-describedby="${ids}"` : ''}><legend>${label}</legend>${VISIBILITIES.map((level) => html`<p><input type="checkbox" id="${name}-${level}" name="${name}[]" value="${level}"${chosen.includes(level) ? html` checked` : ''}> <label for="${name}-${level}">${capitalised(level)}</label></p>`)}${hintHtml}</fieldset>${errorOf(errors, name, label)}`;
    }
    case 'integer':
      if ('values' in definition && definition.values) {
        return selectHtml(field, definition.values.map((option) => [String(option), keyRestrictionLabel(option)]), value, aria, hintHtml, errors);
      }
      return html`<label for="${name}">${label}</label><input type="number" id="${name}" name="${name}" value="${value}" inputmode="numeric"${aria}>${hintHtml}${errorOf(errors, name, label)}`;
    case 'choice':
      return selectHtml(field, (definition.choices ?? []).map((option) => [option, capitalised(option)]), value, aria, hintHtml, errors);
    case 'regexp':
    case 'hosts':
      return html`<label for="${name}">${label}</label><textarea id="${name}" name="${name}" rows="4"${aria}>${value}</textarea>${hintHtml}${errorOf(errors, name, label)}`;
    default:
      return html`<label for="${name}">${label}</label><input type="text" id="${name}" name="${name}" value="${value}"${aria}>${hintHtml}${errorOf(errors, name, label)}`;
  }
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function sectionHtml(context: PageContext, tab: string, section: Section, shown: Shown, errors: Errors): Html {
  const failed = Object.keys(errors).length > 0;
  return html`<section class="settings-section" id="${section.id}" aria-labelledby="${section.id}-title">
  <h2 id="${section.id}-title">${section.title}</h2>
  <p class="muted">${section.intro}${section.link ? html` <a href="${section.link[0]}">${section.link[1]}</a>` : ''}</p>
  ${failed ? html`<p class="error" role="alert">${section.title} were not saved: correct the fields marked below.</p>` : ''}
  ${section.facts ? html`<dl class="facts">${section.facts(context.deps).map(([term, detail]) => html`<dt>${term}</dt><dd>${detail}</dd>`)}</dl>` : ''}
  ${
    section.fields.length
      ? html`<form method="post" action="${SETTINGS_URL}/${tab}" class="stacked">${csrfField(context)}<input type="hidden" name="section" value="${section.id}">
  ${section.fields.map((field) => fieldHtml(field, shown, errors))}
  <p><button type="submit">Save changes</button></p>
</form>`
      : ''
  }
</section>`;
}

function tabOf(context: PageContext) {
  const tab = TABS.find((candidate) => candidate.tab === context.params.tab);
  if (!tab) throw new NotFoundError();
  return tab;
}

async function renderTab(context: PageContext, failed?: { section: string; typed: Shown; errors: Errors }): Promise<PageOutcome> {
  const tab = tabOf(context);
  const stored = shownOf((await readStoredSettings(context.deps.db, context.deps.config)).values);
  return page({
    title: `${tab.title} settings`,
    status: failed ? 400 : 200,
    body: html`
<p><a href="/admin">Admin area</a></p>
<nav class="tabs" aria-label="Settings">${TABS.map((candidate) => html`<a href="${SETTINGS_URL}/${candidate.tab}"${candidate.tab === tab.tab ? html` class="active" aria-current="page"` : ''}>${candidate.title}</a>`)}</nav>
${tab.sections.map((section) => (failed?.section === section.id ? sectionHtml(context, tab.tab, section, { ...stored, ...failed.typed }, failed.errors) : sectionHtml(context, tab.tab, section, stored, {})))}`,
  });
}

/** The section's fields as PUT /application/settings would receive them; an unticked box is false. */
function inputOf(section: Section, form: Record<string, string | string[]>): { input: Record<string, unknown>; typed: Shown } {
  const input: Record<string, unknown> = {};
  const typed: Shown = {};
  for (const { name } of section.fields) {
    const raw = form[name];
    const kind = SETTINGS[name].kind;
    if (kind === 'boolean') {
      input[name] = raw !== undefined && raw !== '' && raw !== '0';
      typed[name] = input[name] ? '1' : '';
    } else if (kind === 'visibilities') {
      const list = Array.isArray(raw) ? raw : typeof raw === 'string' && raw !== '' ? [raw] : [];
      input[name] = list;
      typed[name] = list;
    } else {
      const text = Array.isArray(raw) ? (raw[0] ?? '') : (raw ?? '');
      input[name] = text;
      typed[name] = text;
    }
  }
  return { input, typed };
}

/** A Grape-style refusal (`max_attachment_size is invalid`) as an error of the field it names. */
function paramErrors(section: Section, error: ParamError): Errors {
  const field = section.fields.find(({ name }) => error.message.startsWith(`${name} `));
  return field ? { [field.name]: [error.message.slice(field.name.length + 1)] } : { [section.fields[0]!.name]: [error.message] };
}

async function saveSection(context: PageContext): Promise<PageOutcome> {
  const tab = tabOf(context);
  const section = tab.sections.find((candidate) => candidate.id === context.form.section && candidate.fields.length > 0);
  if (!section) return redirect(`${SETTINGS_URL}/${tab.tab}`, 'Nothing was saved: the form named no settings section.');
  const { input, typed } = inputOf(section, context.form);
  try {
    await updateApplicationSettings(context.deps, parseSettingsInput(input));
  } catch (error) {
    if (error instanceof ValidationError) return renderTab(context, { section: section.id, typed, errors: error.fields });
    if (error instanceof ParamError) return renderTab(context, { section: section.id, typed, errors: paramErrors(section, error) });
    throw error;
  }
  return redirect(`${SETTINGS_URL}/${tab.tab}#${section.id}`, `${section.title}: application settings saved.`);
}

export function applicationSettingsPages(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, { method: 'GET', url: SETTINGS_URL, ability: ADMIN, handler: async () => redirect(`${SETTINGS_URL}/general`, null, 302) });
  pageRoute(app, deps, { method: 'GET', url: `${SETTINGS_URL}/:tab`, ability: ADMIN, handler: (context) => renderTab(context) });
  pageRoute(app, deps, { method: 'POST', url: `${SETTINGS_URL}/:tab`, ability: ADMIN, handler: saveSection });
}
