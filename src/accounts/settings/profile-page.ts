// /profile: the signed-in user edits their name, public e-mail, bio, location, website, pronouns and
// avatar (uploaded, or removed for the generated one).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { html } from '../../platform/web/html.js';
import { csrfField, pageRoute, type PageContext } from '../../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../../platform/web/page.js';
import { confirmedEmailsOf } from '../emails-finder.js';
import { updateProfile, type ProfileInput } from '../update-profile.js';
import { currentUserRow, describedBy, fieldError, formText, settingsTabs, submitForm, type FieldErrors } from './shared.js';
import { inTransaction } from '../../platform/db/database.js';
import { avatarField, avatarFromForm } from './avatar-field.js';
import { avatarUrl } from '../user-entities.js';
import { changeUserAvatar } from '../change-user-avatar.js';

const SIGNED_IN = { instance: 'log_in' } as const;
const TEXT_FIELDS = [
  ['name', 'Full name', 'name'],
  ['pronouns', 'Pronouns', 'off'],
  ['location', 'Location', 'off'],
  ['website_url', 'Website URL', 'url'],
] as const;

async function profileForm(context: PageContext, values: ProfileInput, errors: FieldErrors = {}): Promise<PageOutcome> {
  const [emails, user] = await Promise.all([confirmedEmailsOf(context.deps, context.user.id), currentUserRow(context.deps, context.user.id)]);
  const failed = Object.keys(errors).length > 0;
  return page({
    title: 'Edit profile',
    status: failed ? 400 : 200,
    body: html`${settingsTabs('/profile')}
      ${failed ? html`<p class="error" role="alert">The profile was not saved: correct the fields marked below.</p>` : ''}
      <form method="post" action="/profile" class="stacked" enctype="multipart/form-data">
        ${csrfField(context)}
        ${avatarField({ legend: 'Public avatar', id: 'user-avatar', current: avatarUrl('', user), removable: user.avatar !== null, errors })}
        ${TEXT_FIELDS.map(([name, label, autocomplete]) => html`
          <label for="${name}">${label}</label>
          <input type="${name === 'website_url' ? 'url' : 'text'}" id="${name}" name="${name}" value="${values[name]}" autocomplete="${autocomplete}"${describedBy(errors, name)}>
          ${fieldError(errors, name, label)}`)}
        <label for="public_email">Public e-mail</label>
        <select id="public_email" name="public_email"${describedBy(errors, 'public_email')}>
          <option value="">Do not show on profile</option>
          ${emails.map((email) => html`<option value="${email}"${email === values.public_email ? html` selected` : ''}>${email}</option>`)}
        </select>
        ${fieldError(errors, 'public_email', 'Public e-mail')}
        <label for="bio">Bio</label>
        <textarea id="bio" name="bio" maxlength="255"${describedBy(errors, 'bio')}>${values.bio}</textarea>
        ${fieldError(errors, 'bio', 'Bio')}
        <p><button type="submit">Update profile settings</button></p>
      </form>`,
  });
}

export function profilePages(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, {
    method: 'GET', url: '/profile', ability: SIGNED_IN,
    handler: async (context) => {
      const user = await currentUserRow(deps, context.user.id);
      return profileForm(context, { name: user.name, public_email: user.public_email, bio: user.bio, location: user.location, website_url: user.website_url, pronouns: user.pronouns });
    },
  });

  pageRoute(app, deps, {
    method: 'POST', url: '/profile', ability: SIGNED_IN,
    handler: async (context) => {
      const input: ProfileInput = {
        name: formText(context.form, 'name'), public_email: formText(context.form, 'public_email'), bio: formText(context.form, 'bio'),
        location: formText(context.form, 'location'), website_url: formText(context.form, 'website_url'), pronouns: formText(context.form, 'pronouns'),
      };
      const save = async () => {
        // The file is checked first, so a refused one saves nothing.
        const avatar = avatarFromForm(context);
        await updateProfile(deps, context.user.id, input);
        if (avatar !== undefined) await inTransaction(deps.db, (trx) => changeUserAvatar(trx, context.user.id, avatar, deps.clock.now()));
      };
      return submitForm(save, (errors) => profileForm(context, input, errors), () => redirect('/profile', 'Profile was successfully updated.'));
    },
  });
}
