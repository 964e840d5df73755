// Releases (migration 20261229T0026-releases).
import type { Generated } from 'kysely';

export interface ReleasesTable {
  id: Generated<number>;
  project_id: number;
  tag_name: string;
  name: string;
  description: string;
  /** The tag's commit when the release was made (GitLab's releases.sha). */
  sha: string | null;
  author_id: number | null;
  released_at: number;
  created_at: number;
  updated_at: number;
}

export type ReleaseLinkType = 'other' | 'runbook' | 'image' | 'package';

export interface ReleaseLinksTable {
  id: Generated<number>;
  release_id: number;
  name: string;
  url: string;
  /** GitLab's direct_asset_path (stored as `filepath`, with its leading slash). */
  filepath: string | null;
  link_type: Generated<ReleaseLinkType>;
  created_at: number;
  updated_at: number;
}

export interface ReleaseMilestonesTable {
  release_id: number;
  milestone_id: number;
}

export interface ReleaseEvidencesTable {
  id: Generated<number>;
  release_id: number;
  /** The evidence summary as collected (JSON), and its SHA-256. */
  summary: string;
  summary_sha: string;
  created_at: number;
}

export interface ReleasesTables {
  releases: ReleasesTable;
  release_links: ReleaseLinksTable;
  release_milestones: ReleaseMilestonesTable;
  release_evidences: ReleaseEvidencesTable;
}
