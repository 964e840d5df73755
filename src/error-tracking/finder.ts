import type { Executor } from '../platform/db/database.js';
import { NotFoundError } from '../platform/errors.js';
import type { SettingsRow } from './entities.js';

export async function findSettings(db: Executor, projectId: number): Promise<SettingsRow | undefined> {
  return db.selectFrom('error_tracking_settings').selectAll().where('project_id', '=', projectId).executeTakeFirst();
}

/** The project's settings, or `404 Error Tracking Setting Not Found` when they were never configured. */
export async function requireSettings(db: Executor, projectId: number): Promise<SettingsRow> {
  const row = await findSettings(db, projectId);
  if (!row) throw new NotFoundError('Error Tracking Setting');
  return row;
}
