// /profile/preferences: the colours of the user's pages (light, dark, or as the browser prefers) and
// the time zone their times are shown in.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { html } from '../../platform/web/html.js';
import { csrfField, pageRoute, type PageContext } from '../../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../../platform/web/page.js';
import { timeZones, updatePreferences } from '../update-preferences.js';
import { currentUserRow, describedBy, fieldError, formText, settingsTabs, submitForm, type FieldErrors } from './shared.js';

const SIGNED_IN = { instance: 'log_in' } as const;
const THEME_CHOICES = [
  ['system', 'System', 'Follow the light or dark setting of your device.'],
  ['light', 'Light', 'Dark text on a light background.'],
  ['dark', 'Dark', 'Light text on a dark background.'],
] as const;

function preferencesForm(context: PageContext, values: { theme: string; timeZone: string }, errors: FieldErrors = {}): PageOutcome {
  const failed = Object.keys(errors).length > 0;
  return page({
    title: 'Preferences',
    status: failed ? 400 : 200,
    body: html`${settingsTabs('/profile/preferences')}
      ${failed ? html`<p class="error" role="alert">The preferences were not saved: correct the fields marked below.</p>` : ''}
      <form method="post" action="/profile/preferences" class="stacked">
        ${csrfField(context)}
        <fieldset${describedBy(errors, 'theme')}><legend>Theme</legend>
          ${THEME_CHOICES.map(([value, label, help]) => html`<p><input type="radio" id="theme-${value}" name="theme" value="${value}"${values.theme === value ? html` checked` : ''}> <label for="theme-${value}">${label}</label> <span class="muted">${help}</span></p>`)}
        </fieldset>
        ${fieldError(errors, 'theme', 'Theme')}
        <label for="time_zone">Time zone</label>
        <select id="time_zone" name="time_zone"${describedBy(errors, 'time_zone')}>
          ${timeZones().map((zone) => html`<option${zone === values.timeZone ? html` selected` : ''}>${zone}</option>`)}
        </select>
        ${fieldError(errors, 'time_zone', 'Time zone')}
        <p><button type="submit">Save changes</button></p>
      </form>`,
  });
}

export function preferencesPages(app: FastifyInstance, deps: Deps): void {
  pageRoute(app, deps, {
    method: 'GET', url: '/profile/preferences', ability: SIGNED_IN,
    handler: async (context) => {
      const user = await currentUserRow(deps, context.user.id);
      return preferencesForm(context, { theme: user.theme, timeZone: user.time_zone });
    },
  });

  pageRoute(app, deps, {
    method: 'POST', url: '/profile/preferences', ability: SIGNED_IN,
    handler: async (context) => {
      const values = { theme: formText(context.form, 'theme'), timeZone: formText(context.form, 'time_zone') };
      return submitForm(() => updatePreferences(deps, context.user.id, values), (errors) => preferencesForm(context, values, errors), () => redirect('/profile/preferences', 'Preferences saved.'));
    },
  });
}
