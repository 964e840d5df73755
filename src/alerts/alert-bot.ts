// GitLab writes alert system notes and opens incidents as its "Alert Bot" user (User.alert_bot).
// Kiln creates that user on first need, race-safely, and remembers its id per running app.
import type { Deps } from '../platform/deps.js';
import { cacheSlot } from '../platform/instance-caches.js';
import { createUser } from '../accounts/api.js';
import { ConflictError } from '../platform/errors.js';
import { isUniqueViolation } from '../platform/db/database.js';

export const ALERT_BOT_USERNAME = 'alert-bot';
const KNOWN = cacheSlot('alerts.bot-id', () => ({ id: undefined as number | undefined }));

export async function alertBotId(deps: Deps): Promise<number> {
  const known = deps.caches.of(KNOWN);
  if (known.id !== undefined) return known.id;
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
  known.id = Number(row.id);
  return known.id;
}
