// The avatar field of the group, project and profile settings forms, and what such a form sends.
import { html, type Html } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { isUploadedFile, type UploadedFile } from '../../platform/http/multipart.js';
import { avatarChange } from '../avatar-change.js';
import { describedBy, fieldError, type FieldErrors } from './shared.js';

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
  return context.form.remove_avatar === '1' ? null : undefined;
}
