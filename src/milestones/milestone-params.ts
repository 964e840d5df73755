// Parameters of the milestone routes (GitLab's MilestoneResponses): dates are `YYYY-MM-DD` strings,
// an empty one clears the date.
import { p } from '../platform/http/params.js';
import { ParamError, ValidationError } from '../platform/errors.js';
import { ApiError } from '../platform/http/api-error.js';
import { rubyErrors } from './validate-milestone.js';

export const listParams = {
  state: p.string.optional({ values: ['active', 'closed', 'all'], default: 'all' }),
  iids: p.integers.optional(),
  title: p.string.optional(),
  search: p.string.optional(),
  include_parent_milestones: p.boolean.optional({ default: false }),
  include_ancestors: p.boolean.optional({ default: false }),
  updated_before: p.string.optional(),
  updated_after: p.string.optional(),
};

export const optionalParams = {
  description: p.string.optional(),
  due_date: p.string.optional(),
  start_date: p.string.optional(),
};

// A date, or a date and time (GitLab's Date cast keeps the date part of `2026-12-01T10:00:00Z`).
const DATE = /^(\d{4}-\d{2}-\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** A date parameter: absent, `null` to clear (an empty string), or a valid `YYYY-MM-DD`; 400 otherwise. */
export function dateParam(name: string, value: string | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return null;
  const match = DATE.exec(text);
  // `2026-13-45` matches the shape but is no date (and `toISOString` of an invalid Date throws).
  const day = match?.[1];
  const date = day ? new Date(`${day}T00:00:00.000Z`) : null;
  if (!day || !date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day) throw new ParamError(`${name} is invalid`);
  return day;
}

/** A DateTime filter (ISO 8601) as epoch milliseconds; 400 naming it otherwise. */
export function timeParam(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new ParamError(`${name} is invalid`);
  return ms;
}

/** GitLab answers a milestone's model errors as `{"message": "Failed to create milestone {:title=>[…]}"}`. */
export async function asMilestoneError<T>(verb: 'create' | 'update', work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ValidationError) throw new ApiError(400, { message: `Failed to ${verb} milestone ${rubyErrors(error.fields)}` });
    throw error;
  }
}
