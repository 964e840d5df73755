// Tables of the environments feature: environments and the deployments that feed `last_deployment`.
import type { Generated } from 'kysely';

export type EnvironmentState = 'available' | 'stopped';
export type EnvironmentTier = 'production' | 'staging' | 'testing' | 'development' | 'other';
export type DeploymentStatus = 'created' | 'running' | 'success' | 'failed' | 'canceled';

export interface EnvironmentsTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  /** Generated once on create (GitLab's REST API documentation); a rename keeps it. */
  slug: string;
  external_url: string | null;
  state: EnvironmentState;
  tier: EnvironmentTier;
  created_at: number;
  updated_at: number;
}

export interface DeploymentsTable {
  id: Generated<number>;
  project_id: number;
  environment_id: number;
  /** Per-project sequence (internal_ids usage `deployments`). */
  iid: number;
  ref: string;
  sha: string;
  tag: number;
  status: DeploymentStatus;
  /** Null once the user is deleted. */
  user_id: number | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
  /** The CI job that made it (migration 20261229T0008-ci); null for deployments created through the API. */
  deployable_id: Generated<number | null>;
}

export interface EnvironmentsTables {
  environments: EnvironmentsTable;
  deployments: DeploymentsTable;
}
