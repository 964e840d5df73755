// GitLab writes alert system notes and opens incidents as its "Alert Bot" user (User.alert_bot).
// Kiln creates that user on first need, race-safely, and remembers its id per running app.
import type { Deps } from '../platform/deps.js';
import { createUser } from '../accounts/api.js';
import { ConflictError } from '../platform/errors.js';
import { isUniqueViolation } from '../platform/db/database.js';

export const ALERT_BOT_USERNAME = 'alert-bot';
const known = new WeakMap<Deps, number>();

export async function alertBotId(deps: Deps): Promise<number> {
  const cached = known.get(deps);
  if (cached !== undefined) return cached;
  let row = await deps.db.selectFrom('users').select('id').where('username_lower', '=', ALERT_BOT_USERNAME).executeTakeFirst();
  if (!row) {
    try {
      row = await createUser(deps, { username: ALERT_BOT_USERNAME, name: 'Alert Bot', email: 'alert-bot@noreply.kiln.invalid' });
    } catch (error) {
      // Another request or node created it at the same moment.
      if (!(error instanceof ConflictError) && !isUniqueViolation(error)) throw error;
      row = await deps.db.selectFrom('users').select('id').where('username_lower', '=', ALERT_BOT_USERNAME).executeTakeFirstOrThrow();
    }
  }
  known.set(deps, Number(row.id));
  return Number(row.id);
}
