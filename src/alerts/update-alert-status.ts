// A person changes an alert's status (GitLab's AlertManagement::Alerts::UpdateService): any status
// from any status (§20), with a system note. Reopening an alert while another alert with the same
// fingerprint is open breaks the grouping invariant: the database refuses it and so do we.
import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { authorizeProject } from '../platform/auth/policies/policy.js';
import { inTransaction, isUniqueViolation } from '../platform/db/database.js';
import { ValidationError } from '../platform/errors.js';
import { statusName, transition, type AlertStatus } from './model.js';
import { addAlertSystemNotes, alertNoteText } from './alert-notes.js';
import type { AlertRecord } from './finder.js';

/** Callers show the alert by reading it again: its counter and environment live in other tables. */
export async function updateAlertStatus(deps: Deps, actorId: number, access: ProjectAccess, alert: AlertRecord, status: AlertStatus): Promise<void> {
  authorizeProject(access, 'update_alert_management_alert');
  if (statusName(alert.status) === status) return;
  const now = deps.clock.now();
  try {
    await inTransaction(deps.db, async (trx) => {
      await trx
        .updateTable('alert_management_alerts')
        .set({ ...transition(status, now), updated_at: now })
        .where('id', '=', alert.id)
        .executeTakeFirstOrThrow();
      await addAlertSystemNotes(trx, now, { id: Number(alert.id), project_id: Number(alert.project_id) }, actorId, alertNoteText.status(status));
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ValidationError({ fingerprint: ['Cannot have multiple unresolved alerts'] });
    throw error;
  }
}
