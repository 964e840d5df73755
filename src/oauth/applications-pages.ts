// /profile/applications (GitLab's OAuth documentation): register (name, redirect URIs one per line,
// confidential, scopes), show the Application ID and the secret once, renew, edit, delete; and
// "Authorized applications" with revoke (ASVS 5.0 10.4.9, 10.7.3).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { ValidationError } from '../platform/errors.js';
import { isoTime } from '../platform/clock.js';
import { html, type Html } from '../platform/web/html.js';
import { csrfField, pageRoute, type PageContext } from '../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../platform/web/page.js';
import type { ApplicationRow } from './client-auth.js';
import { createApplication, deleteApplication, renewApplicationSecret, updateApplication } from './applications.js';
import { revokeUserApplicationTokens } from './revoke-tokens.js';
import { authorizedApplications, findOwnApplication, ownApplications } from './finder.js';
import { SCOPE_DESCRIPTIONS, availableScopes, splitScopes } from './scopes.js';

interface FormValues {
  name: string;
  redirectUri: string;
  confidential: boolean;
  scopes: string[];
}

function readForm(form: Record<string, string | string[]>): FormValues {
  const scopes = form['scopes'];
  return {
    name: typeof form.name === 'string' ? form.name : '',
    redirectUri: typeof form.redirect_uri === 'string' ? form.redirect_uri : '',
    confidential: form.confidential === '1',
    scopes: Array.isArray(scopes) ? scopes : typeof scopes === 'string' ? [scopes] : [],
  };
}

function errorList(errors?: Record<string, string[]>): Html {
  if (!errors) return html``;
  return html`<ul class="error" role="alert">${Object.entries(errors).map(([field, messages]) => html`<li>${field.replace('_', ' ')} ${messages.join(', ')}</li>`)}</ul>`;
}

function applicationForm(context: PageContext, action: string, values: FormValues, submit: string): Html {
  const scopes = availableScopes(context.user);
  return html`<form method="post" action="${action}" class="stacked">
    ${csrfField(context)}
    <label for="name">Name</label>
    <input type="text" id="name" name="name" value="${values.name}" required>
    <label for="redirect_uri">Redirect URI</label>
    <textarea id="redirect_uri" name="redirect_uri" required>${values.redirectUri}</textarea>
    <p class="muted">Use one line per URI.</p>
    <label><input type="checkbox" name="confidential" value="1" ${values.confidential ? 'checked' : ''}> Confidential</label>
    <p class="muted">The application will be used where the client secret can be kept confidential. Native mobile apps and single page apps are not confidential.</p>
    <fieldset><legend>Scopes</legend>
      ${scopes.map((scope) => html`<label><input type="checkbox" name="scopes[]" value="${scope}" ${values.scopes.includes(scope) ? 'checked' : ''}> <strong>${scope}</strong> <span class="muted">${SCOPE_DESCRIPTIONS[scope]}</span></label><br>`)}
    </fieldset>
    <p><button type="submit">${submit}</button></p>
  </form>`;
}

async function indexPage(context: PageContext, values: FormValues = { name: '', redirectUri: '', confidential: true, scopes: [] }, errors?: Record<string, string[]>): Promise<PageOutcome> {
  const { deps, user } = context;
  const [own, authorized] = await Promise.all([ownApplications(deps, user.id), authorizedApplications(deps, user.id, deps.clock.now())]);
  return page({
    title: 'Applications',
    status: errors ? 400 : 200,
    body: html`
      <h2>Add new application</h2>
      ${errorList(errors)}
      ${applicationForm(context, '/profile/applications', values, 'Save application')}
      <h2>Your applications (${own.length})</h2>
      <table><thead><tr><th>Name</th><th>Callback URL</th><th>Confidential</th><th></th></tr></thead><tbody>
      ${own.map((app) => html`<tr><td><a href="/profile/applications/${Number(app.id)}">${app.name}</a></td><td><pre>${app.redirect_uri}</pre></td><td>${app.confidential ? 'Yes' : 'No'}</td>
        <td><form method="post" action="/profile/applications/${Number(app.id)}/delete" class="inline">${csrfField(context)}<button type="submit" class="danger">Destroy</button></form></td></tr>`)}
      </tbody></table>
      <h2 id="authorized">Authorized applications (${authorized.length})</h2>
      <table><thead><tr><th>Name</th><th>Authorized at</th><th></th></tr></thead><tbody>
      ${authorized.map((app) => html`<tr><td>${app.name}</td><td>${isoTime(app.first_at as number)}</td>
        <td><form method="post" action="/profile/applications/authorized/${Number(app.id)}/revoke" class="inline">${csrfField(context)}<button type="submit" class="danger">Revoke</button></form></td></tr>`)}
      </tbody></table>`,
  });
}

function showPage(context: PageContext, app: ApplicationRow, secret?: string, errors?: Record<string, string[]>): PageOutcome {
  const id = Number(app.id);
  return page({
    title: `Application: ${app.name}`,
    status: errors ? 400 : 200,
    body: html`
      ${errorList(errors)}
      <table>
        <tr><th>Application ID</th><td><code id="application_id">${app.uid}</code></td></tr>
        <tr><th>Secret</th><td>${secret ? html`<code id="secret">${secret}</code><p class="muted">Copy the secret now: it will not be shown again.</p>` : html`<span class="muted">Hidden. Renew it to get a new one.</span>`}</td></tr>
        <tr><th>Callback URL</th><td><pre>${app.redirect_uri}</pre></td></tr>
        <tr><th>Confidential</th><td>${app.confidential ? 'Yes' : 'No'}</td></tr>
        <tr><th>Scopes</th><td>${splitScopes(app.scopes).join(', ')}</td></tr>
      </table>
      <form method="post" action="/profile/applications/${id}/renew" class="inline">${csrfField(context)}<button type="submit" class="secondary">Renew secret</button></form>
      <h2>Edit application</h2>
      ${applicationForm(context, `/profile/applications/${id}`, { name: app.name, redirectUri: app.redirect_uri, confidential: app.confidential === 1, scopes: splitScopes(app.scopes) }, 'Save application')}
      <form method="post" action="/profile/applications/${id}/delete" class="inline">${csrfField(context)}<button type="submit" class="danger">Destroy</button></form>
      <p><a href="/profile/applications">Back to applications</a></p>`,
  });
}

function ownApplication(context: PageContext): Promise<ApplicationRow> {
  return findOwnApplication(context.deps, context.user.id, Number(context.params.id));
}

export function applicationsPages(app: FastifyInstance, deps: Deps): void {
  // Any signed-in user registers and manages their own applications (GitLab's user OAuth applications).
  const SIGNED_IN = { instance: 'log_in' } as const;
  pageRoute(app, deps, { method: 'GET', url: '/profile/applications', ability: SIGNED_IN, handler: (context) => indexPage(context) });

  pageRoute(app, deps, {
    method: 'POST', url: '/profile/applications', ability: SIGNED_IN,
    handler: async (context) => {
      const values = readForm(context.form);
      try {
        const { application, secret } = await createApplication(deps, { name: values.name, redirectUri: values.redirectUri, scopes: values.scopes, confidential: values.confidential, ownerId: context.user.id });
        return showPage(context, application, secret);
      } catch (error) {
        if (error instanceof ValidationError) return indexPage(context, values, error.fields);
        throw error;
      }
    },
  });

  pageRoute(app, deps, { method: 'GET', url: '/profile/applications/:id', ability: SIGNED_IN, handler: async (context) => showPage(context, await ownApplication(context)) });

  pageRoute(app, deps, {
    method: 'POST', url: '/profile/applications/:id', ability: SIGNED_IN,
    handler: async (context) => {
      const application = await ownApplication(context);
      const values = readForm(context.form);
      try {
        const updated = await updateApplication(deps, application, { name: values.name, redirectUri: values.redirectUri, scopes: values.scopes, confidential: values.confidential });
        return redirect(`/profile/applications/${Number(updated.id)}`, 'The application was updated.');
      } catch (error) {
        if (error instanceof ValidationError) return showPage(context, application, undefined, error.fields);
        throw error;
      }
    },
  });

  pageRoute(app, deps, {
    method: 'POST', url: '/profile/applications/:id/renew', ability: SIGNED_IN,
    handler: async (context) => {
      const { application, secret } = await renewApplicationSecret(deps, await ownApplication(context));
      return showPage(context, application, secret);
    },
  });

  pageRoute(app, deps, {
    method: 'POST', url: '/profile/applications/:id/delete', ability: SIGNED_IN,
    handler: async (context) => {
      await deleteApplication(deps, await ownApplication(context));
      return redirect('/profile/applications', 'The application was deleted.');
    },
  });

  pageRoute(app, deps, {
    method: 'POST', url: '/profile/applications/authorized/:id/revoke', ability: SIGNED_IN,
    handler: async (context) => {
      const id = Number(context.params.id);
      if (Number.isInteger(id)) await revokeUserApplicationTokens(deps, context.user.id, id);
      return redirect('/profile/applications#authorized', 'The application was revoked access.');
    },
  });
}
