// The admin area's users (GitLab's Admin::UsersController): the list with search and state filters,
// each user's state changes (block, unblock, deactivate, activate, approve or reject a sign-up) by
// the API's own actions, and a new user who gets a link to choose a password.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { toApiError } from '../platform/http/error-handler.js';
import { html } from '../platform/web/html.js';
import { csrfField, pageRoute, type PageContext } from '../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../platform/web/page.js';
import { ConflictError, NotFoundError } from '../platform/errors.js';
import { findUserRow } from './lookup.js';
import { sessionPrincipal, USER_ACTIONS } from './admin-user-actions.js';
import { userUrl } from './admin-user-page.js';
import { usersQuery } from './users-finder.js';
import { createUser, takenAsFieldError } from './create-user.js';
import { requestPasswordReset } from './request-password-reset.js';
import { describedBy, fieldError, formText, submitForm, type FieldErrors } from './settings/shared.js';

const ADMIN = { instance: 'admin_all_resources' } as const;
const PER_PAGE = 50;

/** GitLab's admin user filters, as the `filter` query parameter names them. */
const FILTERS = {
  active: ['Active', (state: string) => state === 'active'],
  admins: ['Administrators', null],
  blocked: ['Blocked', (state: string) => state === 'blocked'],
  blocked_pending_approval: ['Pending approval', (state: string) => state === 'blocked_pending_approval'],
  deactivated: ['Deactivated', (state: string) => state === 'deactivated'],
} as const;
type Filter = keyof typeof FILTERS;

function listUrl(filter: string, search: string, pageNumber: number): string {
  const query = new URLSearchParams();
  if (filter) query.set('filter', filter);
  if (search) query.set('search', search);
  if (pageNumber > 1) query.set('page', String(pageNumber));
  const text = query.toString();
  return text ? `/admin/users?${text}` : '/admin/users';
}

async function listUsers(context: PageContext): Promise<PageOutcome> {
  const filter = (context.query.filter in FILTERS ? context.query.filter : '') as Filter | '';
  const search = (context.query.search ?? '').slice(0, 200);
  const pageNumber = Math.min(Math.max(Number.parseInt(context.query.page ?? '1', 10) || 1, 1), 10_000);
  let query = usersQuery(context.deps, context.user, { search }).where('user_type', '=', 'human');
  if (filter === 'admins') query = query.where('admin', '=', 1);
  else if (filter) query = query.where('state', '=', filter);
  const rows = await query.limit(PER_PAGE + 1).offset((pageNumber - 1) * PER_PAGE).execute();
  const users = rows.slice(0, PER_PAGE);
  const tabs = [['', 'All'], ...Object.entries(FILTERS).map(([name, [label]]) => [name, label])] as Array<[string, string]>;
  return page({
    title: 'Users',
    body: html`
      <nav class="tabs" aria-label="User filters">${tabs.map(([name, label]) => html`<a href="${listUrl(name, search, 1)}"${name === filter ? html` class="active" aria-current="page"` : ''}>${label}</a>`)}</nav>
      <form method="get" action="/admin/users" role="search" class="inline">
        ${filter ? html`<input type="hidden" name="filter" value="${filter}">` : ''}
        <label for="search">Search by name, username or e-mail</label>
        <input type="search" id="search" name="search" value="${search}">
        <button type="submit">Search</button>
      </form>
      <p><a class="button" href="/admin/users/new">New user</a></p>
      ${users.length === 0
        ? html`<p class="muted">No user matches. Clear the search or choose another filter.</p>`
        : html`<table id="users"><thead><tr><th>Name</th><th>E-mail</th><th>State</th><th>Actions</th></tr></thead><tbody>${users.map((user) => html`
          <tr data-user="${user.username}">
            <td><a href="${userUrl(user.username)}">${user.name}</a> <span class="muted">@${user.username}</span>${user.admin ? html` <span class="badge">Admin</span>` : ''}</td>
            <td>${user.email}</td>
            <td class="state">${user.state}</td>
            <td>${Number(user.id) === context.user.id ? html`<span class="muted">It's you!</span>` : Object.entries(USER_ACTIONS).filter(([, action]) => action.states.includes(user.state)).map(([name, action]) => html`
              <form method="post" action="/admin/users/${user.username}/${name}" class="inline">${csrfField(context)}<button type="submit"${name === 'reject' || name === 'block' ? html` class="danger"` : ''}>${action.label}<span class="visually-hidden"> ${user.username}</span></button></form>`)}</td>
          </tr>`)}</tbody></table>`}
      <nav aria-label="Pages" class="pagination">
        ${pageNumber > 1 ? html`<a href="${listUrl(filter, search, pageNumber - 1)}" rel="prev">Previous</a>` : ''}
        ${rows.length > PER_PAGE ? html`<a href="${listUrl(filter, search, pageNumber + 1)}" rel="next">Next</a>` : ''}
      </nav>`,
  });
}

function newUserForm(context: PageContext, typed: Record<string, string> = {}, errors: FieldErrors = {}): PageOutcome {
  const failed = Object.keys(errors).length > 0;
  return page({
    title: 'New user',
    status: failed ? 400 : 200,
    body: html`
      ${failed ? html`<p class="error" role="alert">The user was not created: correct the fields marked below.</p>` : ''}
      <form method="post" action="/admin/users" class="stacked">
        ${csrfField(context)}
        ${([['name', 'Name', 'text'], ['username', 'Username', 'text'], ['email', 'Email', 'email']] as const).map(([name, label, type]) => html`
          <label for="${name}">${label}</label>
          <input type="${type}" id="${name}" name="${name}" value="${typed[name] ?? ''}" required${describedBy(errors, name)}>
          ${fieldError(errors, name, label)}`)}
        <p><input type="checkbox" id="admin" name="admin" value="1"${typed.admin ? html` checked` : ''}> <label for="admin">Administrator</label></p>
        <p class="hint">The user is mailed a link to choose their password.</p>
        <p><button type="submit">Create user</button> <a href="/admin/users">Cancel</a></p>
      </form>`,
  });
}

async function changeState(context: PageContext): Promise<PageOutcome> {
  const action = Object.hasOwn(USER_ACTIONS, context.params.action) ? USER_ACTIONS[context.params.action] : undefined;
  const user = action ? await findUserRow(context.deps, context.params.username) : undefined;
  if (!action || !user) throw new NotFoundError();
  // The user's own admin page sends `from=user` to come back to it.
  const fromUserPage = context.form.from === 'user';
  try {
    await action.run(context.deps, sessionPrincipal(context.user), user);
  } catch (error) {
    const refusal = toApiError(error);
    if (!refusal) throw error;
    const message = refusal.body.message ?? refusal.body.error;
    return redirect(fromUserPage ? userUrl(user.username) : '/admin/users', `${action.label} refused: ${typeof message === 'string' ? message : refusal.message}`);
  }
  const back = fromUserPage && context.params.action !== 'reject' ? userUrl(user.username) : `/admin/users?search=${encodeURIComponent(user.username)}`;
  return redirect(back, `${action.done}: @${user.username}`);
}

export function adminUsersPages(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, { method: 'GET', url: '/admin/users', ability: ADMIN, handler: listUsers });
  pageRoute(app, deps, { method: 'GET', url: '/admin/users/new', ability: ADMIN, handler: async (context) => newUserForm(context) });
  pageRoute(app, deps, {
    method: 'POST', url: '/admin/users', ability: ADMIN,
    handler: async (context) => {
      const typed = { name: formText(context.form, 'name'), username: formText(context.form, 'username'), email: formText(context.form, 'email'), admin: formText(context.form, 'admin') };
      return submitForm(
        async () => {
          await createUser(deps, { name: typed.name, username: typed.username, email: typed.email.trim(), admin: typed.admin === '1' }).catch((error: unknown) => {
            throw error instanceof ConflictError ? takenAsFieldError(error) : error;
          });
          await requestPasswordReset(deps, typed.email);
        },
        (errors) => newUserForm(context, typed, errors),
        () => redirect(`/admin/users?search=${encodeURIComponent(typed.username)}`, `User was successfully created: @${typed.username} is mailed a link to choose a password.`),
      );
    },
  });
  pageRoute(app, deps, { method: 'POST', url: '/admin/users/:username/:action', ability: ADMIN, handler: changeState });
}
