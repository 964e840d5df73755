// The values a source's badges are rendered with: a project's own, a group's those of its first
// project the viewer sees (as GitLab does), or none for a group without one (URLs shown as written).
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { groupProjectsQuery } from '../accounts/api.js';
import { PlaceholderValues } from './placeholders.js';
import type { BadgeSource } from './finder.js';

export async function placeholderValuesFor(deps: Deps, source: BadgeSource, viewer: AuthUser | null): Promise<PlaceholderValues | null> {
  if ('project' in source) return new PlaceholderValues(deps, source.project);
  const first = await (await groupProjectsQuery(deps, viewer, source.group, {})).limit(1).executeTakeFirst();
  return first ? new PlaceholderValues(deps, first) : null;
}
