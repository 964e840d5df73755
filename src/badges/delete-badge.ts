// Removes a badge (GitLab's destroy of a source's badge).
import type { Deps } from '../platform/deps.js';
import type { BadgeRow } from './entities.js';

export async function deleteBadge(deps: Deps, badge: BadgeRow): Promise<void> {
  await deps.db.deleteFrom('badges').where('id', '=', badge.id).execute();
}
