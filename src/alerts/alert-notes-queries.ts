// The statement of alert-notes.ts, raw so that ingestion's group-commit work can run it.
import { q, type Statement } from '../platform/db/statements.js';

/** A system note on an alert's timeline, in the shared notes table with GitLab's noteable type (alert-notes.ts). */
export function insertAlertSystemNote(now: number, alert: { id: number; project_id: number }, authorId: number, body: string): Statement {
  return q`
      insert into notes (project_id, noteable_type, noteable_id, author_id, body, system, created_at, updated_at)
      values (${alert.project_id}, 'AlertManagement::Alert', ${alert.id}, ${authorId}, ${body}, 1, ${now}, ${now})`;
}
