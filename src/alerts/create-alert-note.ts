// A comment on an alert's timeline (GitLab's alert details › Activity feed): a user note in the shared
// notes table with the alert's noteable type, beside the system notes.
import { randomBytes } from 'node:crypto';
import type { Deps } from '../platform/deps.js';
import { ValidationError } from '../platform/errors.js';

export async function createAlertNote(deps: Deps, authorId: number, alert: { id: number; project_id: number }, body: string): Promise<void> {
  if (!body.trim()) throw new ValidationError({ note: ["can't be blank"] });
  if (body.length > 1_000_000) throw new ValidationError({ note: ['is too long (maximum is 1000000 characters)'] });
  const now = deps.clock.now();
  await deps.db
    .insertInto('notes')
    .values({ project_id: alert.project_id, noteable_type: 'AlertManagement::Alert', noteable_id: alert.id, author_id: authorId, body, system: 0, discussion_id: randomBytes(20).toString('hex'), created_at: now, updated_at: now })
    .execute();
}
