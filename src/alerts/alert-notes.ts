// System notes on an alert's timeline (gitlab-oauth-alerts.md §19): stored in the shared notes table
// with GitLab's noteable type.
import type { Executor } from '../platform/db/database.js';

export async function addAlertSystemNote(executor: Executor, now: number, alert: { id: number; project_id: number }, authorId: number, body: string): Promise<void> {
  await executor
    .insertInto('notes')
    .values({ project_id: alert.project_id, noteable_type: 'AlertManagement::Alert', noteable_id: alert.id, author_id: authorId, body, system: 1, created_at: now, updated_at: now })
    .execute();
}

export const alertNoteText = {
  logged: (source: string) => `logged an alert from **${source}**`,
  recovery: (source: string) => `logged a recovery alert from **${source}**`,
  status: (status: string) => `changed the status to **${status.charAt(0).toUpperCase()}${status.slice(1)}**`,
  incident: (iid: number) => `created incident #${iid} for this alert`,
};
