// CI/CD settings (migration 20261229T0350-ci-variables-triggers): variables of the instance, groups
// and projects, and pipeline trigger tokens.
import type { Generated } from 'kysely';

export interface CiVariablesTable {
  id: Generated<number>;
  /** Set for a project's variable. */
  project_id: number | null;
  /** Set for a group's variable; neither: the instance's. */
  group_id: number | null;
  key: string;
  /** AES-256-GCM under the instance key (deps.box). */
  value_sealed: string;
  variable_type: Generated<string>;
  protected: Generated<number>;
  masked: Generated<number>;
  raw: Generated<number>;
  environment_scope: Generated<string>;
  description: string | null;
  created_at: number;
  updated_at: number;
}

export interface CiTriggersTable {
  id: Generated<number>;
  project_id: number;
  owner_id: number | null;
  description: Generated<string>;
  token_digest: string;
  token_start: string;
  last_used: number | null;
  created_at: number;
  updated_at: number;
}

/** Pipeline schedules (migration 20261229T0805-ci-pipeline-schedules). */
export interface CiPipelineSchedulesTable {
  id: Generated<number>;
  project_id: number;
  owner_id: number | null;
  description: string;
  ref: string;
  cron: string;
  cron_timezone: string;
  /** The next occurrence of the cron in its time zone (epoch ms); the worker's claim moves it on. */
  next_run_at: number | null;
  active: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface CiPipelineScheduleVariablesTable {
  id: Generated<number>;
  pipeline_schedule_id: number;
  key: string;
  /** AES-256-GCM under the instance key (deps.box). */
  value_sealed: string;
  variable_type: Generated<string>;
  created_at: number;
  updated_at: number;
}

export interface CiSettingsTables {
  ci_variables: CiVariablesTable;
  ci_triggers: CiTriggersTable;
  ci_pipeline_schedules: CiPipelineSchedulesTable;
  ci_pipeline_schedule_variables: CiPipelineScheduleVariablesTable;
}
