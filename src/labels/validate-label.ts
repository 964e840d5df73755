// GitLab's Label validations: a title without commas (labels are named in comma-separated lists),
// at most 255 characters; a colour GitLab accepts (colors.ts); a description of at most 512 KiB.
import { ValidationError } from '../platform/errors.js';
import { isValidColor, normalizeColor } from './colors.js';

export const LABEL_DESCRIPTION_MAX = 512 * 1024;

export interface LabelFields {
  title?: string;
  color?: string;
  description?: string | null;
}

/** The fields to store, trimmed and normalised; a 400 naming every invalid field otherwise. */
export function validateLabelFields(input: LabelFields): LabelFields {
  const errors: Record<string, string[]> = {};
  const out: LabelFields = {};
  if (input.title !== undefined) {
    out.title = input.title.trim();
    if (out.title === '') errors.title = ["can't be blank"];
    else if (out.title.includes(',')) errors.title = ['is invalid'];
    else if ([...out.title].length > 255) errors.title = ['is too long (maximum is 255 characters)'];
  }
  if (input.color !== undefined) {
    out.color = normalizeColor(input.color);
    if (!isValidColor(out.color)) errors.color = ['must be a valid color code'];
  }
  if (input.description !== undefined) {
    // GitLab stores a blank description as nil.
    out.description = input.description === null || input.description.trim() === '' ? null : input.description;
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return out;
}
