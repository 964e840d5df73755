// Pipelines and builds (migration 20261228T1742-commit-statuses): today the commit statuses external
// CI posts; the CI of issue 39 adds its own rows.
import type { Generated } from 'kysely';

export type CiStatus = 'created' | 'waiting_for_resource' | 'preparing' | 'pending' | 'running' | 'success' | 'failed' | 'canceled' | 'skipped' | 'manual' | 'scheduled';

export interface CiPipelinesTable {
  id: Generated<number>;
  project_id: number;
  iid: number;
  sha: string;
  ref: string | null;
  tag: Generated<number>;
  before_sha: string | null;
  source: string;
  status: Generated<CiStatus>;
  user_id: number | null;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  finished_at: number | null;
}

export interface CiBuildsTable {
  id: Generated<number>;
  project_id: number;
  commit_id: number;
  type: string;
  name: string;
  stage: string;
  stage_idx: number;
  ref: string | null;
  status: Generated<CiStatus>;
  target_url: string | null;
  description: string | null;
  coverage: number | null;
  allow_failure: Generated<number>;
  retried: Generated<number>;
  user_id: number | null;
  created_at: number;
  updated_at: number;
  queued_at: number | null;
  started_at: number | null;
  finished_at: number | null;
}

export interface CiTables {
  ci_pipelines: CiPipelinesTable;
  ci_builds: CiBuildsTable;
}
