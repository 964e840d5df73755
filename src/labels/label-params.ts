// Parameters of the label routes shared by project and group labels (GitLab's LabelHelpers).
import { p } from '../platform/http/params.js';
import { LABEL_DESCRIPTION_MAX } from './validate-label.js';

export const createParams = {
  name: p.string.required(),
  color: p.string.required(),
  description: p.string.optional({ max: LABEL_DESCRIPTION_MAX }),
  archived: p.boolean.optional(),
};

export const updateParams = {
  new_name: p.string.optional(),
  color: p.string.optional(),
  description: p.string.optional({ max: LABEL_DESCRIPTION_MAX }),
  archived: p.boolean.optional(),
};

export const listParams = {
  with_counts: p.boolean.optional({ default: false }),
  include_ancestor_groups: p.boolean.optional({ default: true }),
  search: p.string.optional(),
};

/** `priority` allows blank (GitLab: `allow_blank: true`): an empty or null value removes the priority. */
export function priorityOf(input: Record<string, unknown>, parsed: number | undefined): number | null | undefined {
  if (!('priority' in input)) return undefined;
  if (input.priority === null || input.priority === '') return null;
  return parsed;
}
