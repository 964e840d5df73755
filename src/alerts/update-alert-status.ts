// A person changes an alert's status (GitLab's AlertManagement::Alerts::UpdateService): any status
// from any status (§20), with a system note. Reopening an alert while another alert with the same
// fingerprint is open breaks the grouping invariant: the database refuses it and so do we.
import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../accounts/lookup.js';
import { requireLevel } from '../accounts/lookup.js';
import { ACCESS } from '../accounts/access-levels.js';
import { inTransaction, isUniqueViolation } from '../platform/db/database.js';
import { ValidationError } from '../platform/errors.js';
import { statusName, transition, type AlertStatus } from './model.js';
import { addAlertSystemNotes, alertNoteText } from './alert-notes.js';
import type { AlertRow } from './finder.js';

export async function updateAlertStatus(deps: Deps, actorId: number, access: ProjectAccess, alert: AlertRow, status: AlertStatus): Promise<AlertRow> {
  requireLevel(access, ACCESS.developer);
  if (statusName(alert.status) === status) return alert;
  const now = deps.clock.now();
  try {
    return await inTransaction(deps.db, async (trx) => {
      const updated = await trx
        .updateTable('alert_management_alerts')
        .set({ ...transition(status, now), updated_at: now })
        .where('id', '=', alert.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await addAlertSystemNotes(trx, now, { id: Number(alert.id), project_id: Number(alert.project_id) }, actorId, alertNoteText.status(status));
      return { ...updated, events: alert.events, linked_environment_name: alert.linked_environment_name };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ValidationError({ fingerprint: ['Cannot have multiple unresolved alerts'] });
    throw error;
  }
}
