// The maintainers' settings page (GitLab's Settings > Monitor > Error tracking), under the project's
// path: `/<full_path>/-/settings/error_tracking`. The token is write-only: the page says whether one
// is stored and never shows it back.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { ValidationError } from '../platform/errors.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { html, type Html } from '../platform/web/html.js';
import { csrfField, namespacedPage, type PageContext } from '../platform/web/page-route.js';
import { page, redirect } from '../platform/web/page.js';
import { settingsEntity, type SettingsRow } from './entities.js';
import { findSettings } from './finder.js';
import { configureErrorTracking } from './configure-settings.js';

const PATTERN = /^(?<path>.+?)\/-\/settings\/error_tracking$/;

export function settingsPagePath(fullPath: string): string {
  return `/${fullPath}/-/settings/error_tracking`;
}

interface FormValues {
  active: boolean;
  apiUrl: string;
  projectName: string;
}

function valuesOf(row: SettingsRow | undefined): FormValues {
  return { active: row?.enabled === 1, apiUrl: row?.api_url ?? '', projectName: row?.project_name ?? '' };
}

function settingsForm(context: PageContext, access: ProjectAccess, values: FormValues, row: SettingsRow | undefined, errors: Record<string, string[]> | null): Html {
  const shown = row ? settingsEntity(row) : null;
  return html`
<p class="muted">Link <strong>${access.project.full_path}</strong> to an external error tracker (Sentry API).
The auth token is stored encrypted and never shown again.</p>
${errors
  ? html`<div class="error" role="alert"><p>The settings were not saved:</p><ul>${Object.entries(errors).flatMap(([field, messages]) => messages.map((message) => html`<li>${field.replace(/_/g, ' ')} ${message}</li>`))}</ul></div>`
  : ''}
${shown?.tracker_external_url ? html`<p>Tracker project: <a href="${shown.tracker_external_url}" rel="noreferrer">${shown.project_name ?? shown.tracker_external_url}</a></p>` : ''}
<form method="post" class="stacked" action="${settingsPagePath(access.project.full_path)}">
  ${csrfField(context)}
  <label><input type="checkbox" name="active" value="1" id="error-tracking-active" ${values.active ? html`checked` : ''}> Active</label>
  <label for="error-tracking-api-url">API URL</label>
  <input type="url" name="api_url" id="error-tracking-api-url" value="${values.apiUrl}" placeholder="https://sentry.example.com/api/0/projects/organization/project/">
  <label for="error-tracking-token">Auth token</label>
  <input type="password" name="token" id="error-tracking-token" value="" autocomplete="off" placeholder="${row?.token_sealed ? 'A token is stored; leave blank to keep it' : ''}">
  <label for="error-tracking-project-name">Project name</label>
  <input type="text" name="project_name" id="error-tracking-project-name" value="${values.projectName}" placeholder="Derived from the API URL when blank">
  <p><button type="submit">Save changes</button></p>
</form>`;
}

export function errorTrackingPages(app: FastifyInstance, deps: Deps): void {
  namespacedPage(app, deps, {
    method: 'GET',
    pattern: PATTERN,
    ability: { project: 'admin_operations' },
    handler: async (context) => {
      const access = await context.project();
      const row = await findSettings(deps.db, access.project.id);
      return page({ title: 'Error tracking', body: settingsForm(context, access, valuesOf(row), row, null) });
    },
  });

  namespacedPage(app, deps, {
    method: 'POST',
    pattern: PATTERN,
    ability: { project: 'admin_operations' },
    handler: async (context) => {
      const access = await context.project();
      const field = (name: string) => (typeof context.form[name] === 'string' ? (context.form[name] as string) : '');
      const values: FormValues = { active: field('active') !== '', apiUrl: field('api_url'), projectName: field('project_name') };
      try {
        await configureErrorTracking(deps, { user: context.user, scopes: [], via: 'session', tokenId: null }, {
          access, active: values.active, apiUrl: values.apiUrl, token: field('token'), projectName: values.projectName,
        });
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        const row = await findSettings(deps.db, access.project.id);
        return page({ title: 'Error tracking', status: 422, body: settingsForm(context, access, values, row, error.fields) });
      }
      return redirect(settingsPagePath(access.project.full_path), 'Error tracking settings saved.');
    },
  });
}
