// What the user's own settings pages share: the tabs between them, their current row, and errors
// shown beside the field they are about.
import type { Deps } from '../../platform/deps.js';
import type { PageOutcome } from '../../platform/web/page.js';
import { html, type Html } from '../../platform/web/html.js';
import { ValidationError } from '../../platform/errors.js';
import type { UserRow } from '../lookup.js';

const TABS = [
  ['/profile', 'Profile'],
  ['/profile/password/edit', 'Password'],
  ['/profile/preferences', 'Preferences'],
  ['/profile/active_sessions', 'Active sessions'],
] as const;

export function settingsTabs(current: string): Html {
  return html`<nav class="tabs" aria-label="User settings">${TABS.map(([href, label]) => html`<a href="${href}"${href === current ? html` class="active" aria-current="page"` : ''}>${label}</a>`)}</nav>`;
}

export function currentUserRow(deps: Deps, id: number): Promise<UserRow> {
  return deps.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export type FieldErrors = Record<string, string[]>;

export function fieldErrorsOf(error: unknown): FieldErrors | null {
  return error instanceof ValidationError ? error.fields : null;
}

/** The error of one field, next to it; `aria-describedby="<name>-error"` on the input points here. */
export function fieldError(errors: FieldErrors, name: string, label: string): Html {
  const messages = errors[name];
  return messages ? html`<p class="field-error" id="${name}-error">${label} ${messages.join(', ')}</p>` : html``;
}

/** The attributes that tie an input to its error. */
export function describedBy(errors: FieldErrors, name: string): Html {
  return errors[name] ? html` aria-invalid="true" aria-describedby="${name}-error"` : html``;
}

export function formText(form: Record<string, string | string[]>, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value : '';
}

/**
 * Run a form's action: its validation errors show the form again (with what was typed and the
 * errors beside their fields); success is `done`'s outcome; any other error propagates.
 */
export async function submitForm(action: () => Promise<unknown>, showForm: (errors: FieldErrors) => PageOutcome | Promise<PageOutcome>, done: () => PageOutcome): Promise<PageOutcome> {
  try {
    await action();
  } catch (error) {
    const errors = fieldErrorsOf(error);
    if (errors) return showForm(errors);
    throw error;
  }
  return done();
}
