// The stored settings as one raw read, for the row cache (read-settings.ts `currentSettings`): the
// throttles read them on every request.
import { q, type Statement } from '../platform/db/statements.js';
import type { CachedTable } from '../platform/db/reads.js';

export const SETTINGS_TABLES: readonly CachedTable[] = ['application_settings'];

export function storedSettingRows(): Statement {
  return q`select name, value, created_at, updated_at from application_settings`;
}
