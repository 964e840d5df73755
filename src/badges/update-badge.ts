// Changes a badge's name or URLs (GitLab's Badges::UpdateService): what is not sent stays.
import type { Deps } from '../platform/deps.js';
import type { BadgeRow } from './entities.js';
import { validateBadge } from './validate-badge.js';

export interface BadgeChanges { name?: string; link_url?: string; image_url?: string }

export async function updateBadge(deps: Deps, badge: BadgeRow, changes: BadgeChanges): Promise<BadgeRow> {
  const next = { name: changes.name ?? badge.name, link_url: changes.link_url ?? badge.link_url, image_url: changes.image_url ?? badge.image_url };
  validateBadge(next);
  if (next.name === badge.name && next.link_url === badge.link_url && next.image_url === badge.image_url) return badge;
  return deps.db.updateTable('badges').set({ ...next, updated_at: deps.clock.now() }).where('id', '=', badge.id).returningAll().executeTakeFirstOrThrow();
}
