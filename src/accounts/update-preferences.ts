// A user's preferences: the colours of their pages and the time zone their times are shown in.
import type { Deps } from '../platform/deps.js';
import { ValidationError } from '../platform/errors.js';
import type { Theme } from '../platform/db/tables/accounts.js';

export const THEMES: readonly Theme[] = ['system', 'light', 'dark'];

let zones: Set<string> | undefined;
/** The IANA zones this Node.js knows (its ICU data), plus UTC, which it lists as `Etc/UTC` only on some builds. */
export function timeZones(): string[] {
  zones ??= new Set(['UTC', ...Intl.supportedValuesOf('timeZone')]);
  return [...zones];
}

export async function updatePreferences(deps: Deps, userId: number, input: { theme: string; timeZone: string }): Promise<void> {
  const errors: Record<string, string[]> = {};
  if (!THEMES.includes(input.theme as Theme)) errors.theme = ['is not included in the list'];
  timeZones();
  if (!zones!.has(input.timeZone)) errors.time_zone = ['is not included in the list'];
  if (Object.keys(errors).length) throw new ValidationError(errors);
  await deps.db.updateTable('users').set({ theme: input.theme as Theme, time_zone: input.timeZone, updated_at: deps.clock.now() }).where('id', '=', userId).execute();
}
