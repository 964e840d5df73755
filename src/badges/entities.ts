// Wire shapes of badges (GitLab's Entities::BasicBadgeDetails and Entities::Badge): the URLs as
// stored and as rendered for a project (unrendered when there is none, as a group without projects).
import type { Selectable } from 'kysely';
import type { BadgesTable } from '../platform/db/tables/badges.js';
import type { PlaceholderValues } from './placeholders.js';

export type BadgeRow = Selectable<BadgesTable>;
export interface BadgeFields { name: string | null; link_url: string; image_url: string }

export async function basicBadgeEntity(badge: BadgeFields, values: PlaceholderValues | null) {
  return {
    name: badge.name,
    link_url: badge.link_url,
    image_url: badge.image_url,
    rendered_link_url: values ? await values.render(badge.link_url) : badge.link_url,
    rendered_image_url: values ? await values.render(badge.image_url) : badge.image_url,
  };
}

export async function badgeEntity(badge: BadgeRow, values: PlaceholderValues | null) {
  return {
    ...(await basicBadgeEntity(badge, values)),
    id: Number(badge.id),
    kind: badge.project_id !== null ? 'project' : 'group',
  };
}
