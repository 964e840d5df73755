// System notes on an alert's timeline (GitLab's alert management documentation): stored in the shared notes table
// with GitLab's noteable type.
import type { Tx } from '../platform/db/statements.js';
import { insertAlertSystemNote } from './alert-notes-queries.js';

/**
 * In the caller's transaction (a builder transaction, or ingestion's group-commit work: ingestion
 * writes these notes for every new and every resolved alert).
 */
export async function addAlertSystemNotes(tx: Tx, now: number, alert: { id: number; project_id: number }, authorId: number, ...bodies: string[]): Promise<void> {
  for (const body of bodies) await tx.all(insertAlertSystemNote(now, alert, authorId, body));
}

export const alertNoteText = {
  logged: (source: string) => `logged an alert from **${source}**`,
  recovery: (source: string) => `logged a recovery alert from **${source}**`,
  status: (status: string) => `changed the status to **${status.charAt(0).toUpperCase()}${status.slice(1)}**`,
  incident: (iid: number) => `created incident #${iid} for this alert`,
};
