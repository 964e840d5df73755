// Project and group badges (migration 20261229T1530-badges).
import type { Generated } from 'kysely';

export interface BadgesTable {
  id: Generated<number>;
  /** Exactly one of project_id and group_id is set (a check constraint): GitLab's ProjectBadge or GroupBadge. */
  project_id: number | null;
  group_id: number | null;
  name: string | null;
  link_url: string;
  image_url: string;
  created_at: number;
  updated_at: number;
}

export interface BadgesTables {
  badges: BadgesTable;
}
