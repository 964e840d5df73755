// Adds a badge to a project or a group (GitLab's Badges::CreateService).
import type { Deps } from '../platform/deps.js';
import type { BadgeFields, BadgeRow } from './entities.js';
import type { BadgeSource } from './finder.js';
import { validateBadge } from './validate-badge.js';

export async function createBadge(deps: Deps, source: BadgeSource, input: BadgeFields): Promise<BadgeRow> {
  validateBadge(input);
  const now = deps.clock.now();
  return deps.db.insertInto('badges').values({
    project_id: 'project' in source ? Number(source.project.id) : null,
    group_id: 'group' in source ? Number(source.group.id) : null,
    name: input.name, link_url: input.link_url, image_url: input.image_url, created_at: now, updated_at: now,
  }).returningAll().executeTakeFirstOrThrow();
}
