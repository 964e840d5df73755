// Small pieces the account forms share: reading a form field, the visibility radios, field errors,
// the avatar field of the group, project and profile settings.
import { html, type Html } from '../../platform/web/html.js';
import { ValidationError } from '../../platform/errors.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { isUploadedFile, type UploadedFile } from '../../platform/http/multipart.js';
import { avatarChange } from '../avatar-change.js';
import { describedBy, fieldError, type FieldErrors } from '../settings/shared.js';

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

/**
 * An avatar fieldset (its form needs `enctype="multipart/form-data"`): the current image, a box to
 * remove an uploaded one, and the file input, its error beside it.
 */
export function avatarField(options: { legend: string; id: string; current: string | null; removable: boolean; errors: FieldErrors }): Html {
  const { legend, id, current, removable, errors } = options;
  return html`<fieldset><legend>${legend}</legend>
${current ? html`<p><img src="${current}" alt="The current avatar" width="64" height="64">${removable ? html` <input type="checkbox" id="remove-avatar" name="remove_avatar" value="1"> <label for="remove-avatar">Remove the avatar</label>` : ''}</p>` : ''}
<p><label for="${id}">Upload a new avatar</label> <input type="file" id="${id}" name="avatar" accept="image/*"${describedBy(errors, 'avatar')}></p>
<p class="muted">An image (PNG, JPEG, GIF, WebP and the like) up to 200 KiB.</p>${fieldError(errors, 'avatar', 'Avatar')}</fieldset>`;
}

/** The avatar a form sends, checked as the API's: a new file, `null` to remove it, or nothing to keep it. */
export function avatarFromForm(context: PageContext): UploadedFile | null | undefined {
  const upload = (context.request.body as Record<string, unknown> | undefined)?.avatar;
  if (isUploadedFile(upload) && upload.filename.trim() !== '') return avatarChange(upload);
  return field(context.form, 'remove_avatar') === '1' ? null : undefined;
}
