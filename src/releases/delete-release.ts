// Delete a release (GitLab's Releases::DestroyService): its links, milestones' association and evidence
// go with it; the tag stays. The Release Hook is built before the rows go.
import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { inTransaction } from '../platform/db/database.js';
import type { ReleaseRow } from './finder.js';

export async function deleteRelease(deps: Deps, access: ProjectAccess, release: ReleaseRow): Promise<void> {
  await inTransaction(deps.db, async (trx) => {
    await deps.domainEvents.publish(trx, { kind: 'release.deleted', projectId: Number(release.project_id), actorId: access.user?.id ?? null, releaseId: Number(release.id) });
    await trx.deleteFrom('release_links').where('release_id', '=', release.id).execute();
    await trx.deleteFrom('release_milestones').where('release_id', '=', release.id).execute();
    await trx.deleteFrom('release_evidences').where('release_id', '=', release.id).execute();
    await trx.deleteFrom('releases').where('id', '=', release.id).execute();
  });
}
