// System notes on an alert's timeline (gitlab-oauth-alerts.md §19): stored in the shared notes table
// with GitLab's noteable type.
import { q, sqlRunner, type SqlTarget } from '../platform/db/reads.js';

/**
 * Raw SQL in the caller's transaction: ingestion writes these notes for every new and every resolved
 * alert (ingestion-queries.ts).
 */
export async function addAlertSystemNotes(target: SqlTarget, now: number, alert: { id: number; project_id: number }, authorId: number, ...bodies: string[]): Promise<void> {
  const tx = sqlRunner(target);
  for (const body of bodies) {
    await tx.all(q`
      insert into notes (project_id, noteable_type, noteable_id, author_id, body, system, created_at, updated_at)
      values (${alert.project_id}, 'AlertManagement::Alert', ${alert.id}, ${authorId}, ${body}, 1, ${now}, ${now})`);
  }
}

export const alertNoteText = {
  logged: (source: string) => `logged an alert from **${source}**`,
  recovery: (source: string) => `logged a recovery alert from **${source}**`,
  status: (status: string) => `changed the status to **${status.charAt(0).toUpperCase()}${status.slice(1)}**`,
  incident: (iid: number) => `created incident #${iid} for this alert`,
};
