// The stored settings as one raw read, for what keeps them per node (read-settings.ts
// `currentSettings`): the throttles ask for them on every request.
import { q, type Statement } from '../platform/db/statements.js';

export function storedSettingRows(): Statement {
  return q`select name, value, created_at, updated_at from application_settings`;
}
