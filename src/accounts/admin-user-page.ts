// One user in the admin area (GitLab's Admin::UsersController show, edit, update and destroy):
// the account's facts and every action its state allows; the edit form, which writes through the
// same updateUser as PUT /users/:id (same validation and messages); a password reset link mailed on
// request; deletion, to the ghost user or with the contributions, confirmed by typing the username.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { html, type Html } from '../platform/web/html.js';
import { csrfField, pageRoute, type PageContext } from '../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../platform/web/page.js';
import { localTime } from '../platform/web/local-time.js';
import { ConflictError, NotFoundError, ValidationError } from '../platform/errors.js';
import { toApiError } from '../platform/http/error-handler.js';
import { findUserRow, type UserRow } from './lookup.js';
import { updateUser, type UpdateUserInput } from './update-user.js';
import { requestPasswordReset } from './request-password-reset.js';
import { scheduleUserDeletion } from './schedule-user-deletion.js';
import { describedBy, fieldError, formText, submitForm, type FieldErrors } from './settings/shared.js';
import { sessionPrincipal, USER_ACTIONS } from './admin-user-actions.js';

const ADMIN = { instance: 'admin_all_resources' } as const;

/** The profile fields an administrator edits, as PUT /users/:id names them. */
const TEXT_FIELDS = [
  ['name', 'Name', 'text'],
  ['email', 'Email', 'email'],
  ['pronouns', 'Pronouns', 'text'],
  ['location', 'Location', 'text'],
  ['organization', 'Organization', 'text'],
  ['website_url', 'Website URL', 'url'],
] as const;
type TextField = (typeof TEXT_FIELDS)[number][0];
type Typed = Record<TextField | 'bio' | 'admin' | 'private_profile', string>;

export function userUrl(username: string): string {
  return `/admin/users/${encodeURIComponent(username)}`;
}

/** The user the URL names: people only (the ghost and bots are not managed here). */
async function userOf(context: PageContext): Promise<UserRow> {
  const user = await findUserRow(context.deps, context.params.username);
  if (!user || user.user_type !== 'human') throw new NotFoundError();
  return user;
}

async function zoneOf(context: PageContext): Promise<string> {
  const viewer = await context.deps.db.selectFrom('users').select('time_zone').where('id', '=', context.user.id).executeTakeFirst();
  return viewer?.time_zone || 'UTC';
}

function postButton(context: PageContext, action: string, label: string, username: string, danger = false): Html {
  return html`<form method="post" action="${userUrl(username)}/${action}" class="inline">${csrfField(context)}<input type="hidden" name="from" value="user"><button type="submit"${danger ? html` class="danger"` : ''}>${label}</button></form>`;
}

async function showUser(context: PageContext): Promise<PageOutcome> {
  const user = await userOf(context);
  const zone = await zoneOf(context);
  const itself = Number(user.id) === context.user.id;
  const facts: Array<[string, Html | string]> = [
    ['Username', `@${user.username}`],
    ['Email', user.email],
    ['State', user.state],
    ['Administrator', user.admin ? 'Yes' : 'No'],
    ['Two-factor authentication', user.otp_required ? 'Enabled' : 'Disabled'],
    ['Member since', localTime(Number(user.created_at), zone)],
    ['Last activity', user.last_activity_on ?? 'Never'],
  ];
  const actions = Object.entries(USER_ACTIONS).filter(([, action]) => action.states.includes(user.state));
  return page({
    title: user.name,
    body: html`
      <p><a href="/admin/users">All users</a> · <a href="/${user.username}">Public profile</a></p>
      <dl class="facts" id="user-facts">${facts.map(([term, value]) => html`<dt>${term}</dt><dd>${value}</dd>`)}</dl>
      <h2>Actions</h2>
      <div class="actions">
        <a class="button" href="${userUrl(user.username)}/edit">Edit</a>
        ${itself ? '' : html`${user.state === 'active' && !context.session.impersonator ? postButton(context, 'impersonate', 'Impersonate', user.username) : ''}
        ${actions.map(([name, action]) => postButton(context, name, action.label, user.username, name === 'reject' || name === 'block'))}`}
        ${user.state === 'active' ? postButton(context, 'password_reset', 'Send password reset link', user.username) : ''}
      </div>
      ${itself ? '' : deleteForms(context, user)}`,
  });
}

function deleteForms(context: PageContext, user: UserRow): Html {
  const form = (hard: boolean) => html`
    <form method="post" action="${userUrl(user.username)}/delete" class="stacked danger-zone">
      ${csrfField(context)}
      ${hard ? html`<input type="hidden" name="hard_delete" value="1">` : ''}
      <h3>${hard ? 'Delete user and contributions' : 'Delete user'}</h3>
      <p>${hard
        ? 'The account is deleted with its issues, merge requests, notes and the groups only it owns.'
        : 'The account is deleted; its issues, merge requests and notes move to the Ghost User. A user who is the only owner of a group is kept until the group has another owner.'}</p>
      <label for="confirm-${hard ? 'hard' : 'soft'}">Type <code>${user.username}</code> to confirm</label>
      <input type="text" id="confirm-${hard ? 'hard' : 'soft'}" name="confirm_username" autocomplete="off" required>
      <p><button type="submit" class="danger">${hard ? 'Delete user and contributions' : 'Delete user'}</button></p>
    </form>`;
  return html`<h2>Delete</h2>${form(false)}${form(true)}`;
}

function editForm(context: PageContext, user: UserRow, typed: Typed, errors: FieldErrors = {}): PageOutcome {
  const failed = Object.keys(errors).length > 0;
  const itself = Number(user.id) === context.user.id;
  return page({
    title: `Edit user: ${user.name}`,
    status: failed ? 400 : 200,
    body: html`
      <p><a href="${userUrl(user.username)}">Back to @${user.username}</a></p>
      ${failed ? html`<p class="error" role="alert">The user was not saved: correct the fields marked below.</p>` : ''}
      <form method="post" action="${userUrl(user.username)}/edit" class="stacked">
        ${csrfField(context)}
        <h2>Account</h2>
        ${TEXT_FIELDS.map(([name, label, type]) => html`
          <label for="${name}">${label}</label>
          <input type="${type}" id="${name}" name="${name}" value="${typed[name]}"${name === 'name' || name === 'email' ? html` required` : ''}${describedBy(errors, name)}>
          ${fieldError(errors, name, label)}`)}
        <label for="bio">Bio</label>
        <textarea id="bio" name="bio"${describedBy(errors, 'bio')}>${typed.bio}</textarea>
        ${fieldError(errors, 'bio', 'Bio')}
        <h2>Password</h2>
        <p class="hint">Leave empty to keep the current password.${itself ? '' : ' A password set here must be changed by the user at their next sign-in.'}</p>
        <label for="password">Password</label>
        <input type="password" id="password" name="password" autocomplete="new-password"${describedBy(errors, 'password')}>
        ${fieldError(errors, 'password', 'Password')}
        <label for="password_confirmation">Password confirmation</label>
        <input type="password" id="password_confirmation" name="password_confirmation" autocomplete="new-password"${describedBy(errors, 'password_confirmation')}>
        ${fieldError(errors, 'password_confirmation', 'Password confirmation')}
        <h2>Access</h2>
        <p><input type="checkbox" id="admin" name="admin" value="1"${typed.admin ? html` checked` : ''}${itself ? html` disabled aria-describedby="admin-self"` : ''}> <label for="admin">Administrator</label>
          ${itself ? html`<span class="hint" id="admin-self">You cannot remove your own administrator access.</span>` : ''}</p>
        <p><input type="checkbox" id="private_profile" name="private_profile" value="1"${typed.private_profile ? html` checked` : ''}> <label for="private_profile">Private profile</label></p>
        <p><button type="submit">Save changes</button> <a href="${userUrl(user.username)}">Cancel</a></p>
      </form>`,
  });
}

function typedOf(user: UserRow): Typed {
  return {
    name: user.name, email: user.email, pronouns: user.pronouns, location: user.location, organization: user.organization, website_url: user.website_url,
    bio: user.bio, admin: user.admin ? '1' : '', private_profile: user.private_profile ? '1' : '',
  };
}

async function saveUser(context: PageContext): Promise<PageOutcome> {
  const user = await userOf(context);
  const itself = Number(user.id) === context.user.id;
  const form = context.form;
  const typed: Typed = { ...typedOf(user), admin: formText(form, 'admin'), private_profile: formText(form, 'private_profile'), bio: formText(form, 'bio') };
  for (const [name] of TEXT_FIELDS) typed[name] = formText(form, name);
  if (itself) typed.admin = '1';
  const password = formText(form, 'password');
  const input: UpdateUserInput = {
    name: typed.name, email: typed.email.trim(), pronouns: typed.pronouns, location: typed.location, organization: typed.organization,
    website_url: typed.website_url, bio: typed.bio, admin: typed.admin === '1', private_profile: typed.private_profile === '1',
  };
  if (password !== '') input.password = password;
  return submitForm(
    async () => {
      if (password !== '' && password !== formText(form, 'password_confirmation')) throw new ValidationError({ password_confirmation: ["doesn't match Password"] });
      await updateUser(context.deps, Number(user.id), input).catch((error: unknown) => {
        throw error instanceof ConflictError ? new ValidationError({ email: ['has already been taken'] }) : error;
      });
      // GitLab: a password an administrator chose for someone else is only good for the next sign-in.
      if (password !== '' && !itself) await context.deps.db.updateTable('users').set({ password_expires_at: context.deps.clock.now() }).where('id', '=', user.id).execute();
    },
    (errors) => editForm(context, user, typed, errors),
    () => redirect(userUrl(user.username), 'User was successfully updated.'),
  );
}

async function deleteUser(context: PageContext): Promise<PageOutcome> {
  const user = await userOf(context);
  if (Number(user.id) === context.user.id) return redirect(userUrl(user.username), 'You cannot delete your own account from the admin area.');
  if (formText(context.form, 'confirm_username') !== user.username) return redirect(userUrl(user.username), `The user was not deleted: type ${user.username} to confirm.`);
  try {
    await scheduleUserDeletion(context.deps, sessionPrincipal(context.user), user, formText(context.form, 'hard_delete') === '1');
  } catch (error) {
    const refusal = toApiError(error);
    if (!refusal || refusal.status >= 500) throw error;
    const message = refusal.body.message ?? refusal.body.error;
    return redirect(userUrl(user.username), `The user was not deleted: ${typeof message === 'string' ? message : refusal.message}`);
  }
  return redirect('/admin/users', `The user is being deleted: @${user.username}`);
}

export function adminUserPage(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, { method: 'GET', url: '/admin/users/:username', ability: ADMIN, handler: showUser });
  pageRoute(app, deps, { method: 'GET', url: '/admin/users/:username/edit', ability: ADMIN, handler: async (context) => {
    const user = await userOf(context);
    return editForm(context, user, typedOf(user));
  } });
  pageRoute(app, deps, { method: 'POST', url: '/admin/users/:username/edit', ability: ADMIN, handler: saveUser });
  pageRoute(app, deps, { method: 'POST', url: '/admin/users/:username/delete', ability: ADMIN, handler: deleteUser });
  pageRoute(app, deps, {
    method: 'POST', url: '/admin/users/:username/password_reset', ability: ADMIN,
    handler: async (context) => {
      const user = await userOf(context);
      await requestPasswordReset(deps, user.email);
      return redirect(userUrl(user.username), `A password reset link was sent to ${user.email} (at most one a minute).`);
    },
  });
}
