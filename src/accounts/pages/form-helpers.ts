// Small pieces the account forms share: reading a form field, the visibility radios, field errors.
import { html, type Html } from '../../platform/web/html.js';
import { ValidationError } from '../../platform/errors.js';

export const VISIBILITIES = [
  ['private', 'Private', 'Access must be granted explicitly to each user.'],
  ['internal', 'Internal', 'Any signed-in user can see it.'],
  ['public', 'Public', 'Anyone can see it, without signing in.'],
] as const;

export function field(form: Record<string, string | string[]>, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value : '';
}

export function visibilityOf(value: string): 'private' | 'internal' | 'public' {
  return value === 'public' || value === 'internal' ? value : 'private';
}

/** `restricted`: levels the administrator restricted for this user, offered disabled unless current. */
export function visibilityRadios(current: string, restricted: readonly string[] = []): Html {
  return html`<fieldset><legend>Visibility level</legend>${VISIBILITIES.map(([value, label, help]) => {
    const off = restricted.includes(value) && current !== value;
    return html`<p><input type="radio" id="visibility-${value}" name="visibility" value="${value}"${current === value ? html` checked` : ''}${off ? html` disabled` : ''}> <label for="visibility-${value}">${label}</label> <span class="muted">${off ? 'Restricted by your administrator.' : help}</span></p>`;
  })}</fieldset>`;
}

/** A validation error as sentences ("Path has already been taken"), else null for other errors. */
export function validationMessage(error: unknown): string | null {
  if (!(error instanceof ValidationError)) return null;
  return Object.entries(error.fields)
    .map(([name, messages]) => `${(name === 'visibility_level' ? 'visibility level' : name).replace(/^./, (c) => c.toUpperCase())} ${messages.join(', ')}`)
    .join('. ');
}
