// Change a release (GitLab's Releases::UpdateService): its name, notes, date and milestones (an empty
// list removes them). Nothing sent changes nothing and sends no hook.
import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { inTransaction } from '../platform/db/database.js';
import { ValidationError } from '../platform/errors.js';
import { releaseTextProblems } from './create-release.js';
import type { ReleaseRow } from './finder.js';

export interface UpdateReleaseInput {
  name?: string;
  description?: string;
  releasedAt?: number;
  milestoneIds?: number[];
}

export async function updateRelease(deps: Deps, access: ProjectAccess, release: ReleaseRow, input: UpdateReleaseInput): Promise<ReleaseRow> {
  const errors: Record<string, string[]> = {};
  releaseTextProblems(errors, input);
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const changes: { name?: string; description?: string; released_at?: number } = {};
  if (input.name !== undefined && input.name !== release.name) changes.name = input.name.trim() || release.tag_name;
  if (input.description !== undefined && input.description !== release.description) changes.description = input.description;
  if (input.releasedAt !== undefined && input.releasedAt !== Number(release.released_at)) changes.released_at = input.releasedAt;
  const current = (await deps.db.selectFrom('release_milestones').select('milestone_id').where('release_id', '=', release.id).execute()).map((row) => Number(row.milestone_id)).sort();
  const milestonesChange = input.milestoneIds !== undefined && JSON.stringify([...input.milestoneIds].sort()) !== JSON.stringify(current);
  if (Object.keys(changes).length === 0 && !milestonesChange) return release;
  return inTransaction(deps.db, async (trx) => {
    const updated = await trx.updateTable('releases').set({ ...changes, updated_at: deps.clock.now() }).where('id', '=', release.id).returningAll().executeTakeFirstOrThrow();
    if (milestonesChange) {
      await trx.deleteFrom('release_milestones').where('release_id', '=', release.id).execute();
      if (input.milestoneIds!.length) await trx.insertInto('release_milestones').values(input.milestoneIds!.map((id) => ({ release_id: release.id, milestone_id: id }))).execute();
    }
    await deps.domainEvents.publish(trx, { kind: 'release.updated', projectId: Number(release.project_id), actorId: access.user?.id ?? null, releaseId: Number(release.id) });
    return updated;
  });
}
