import type { Generated } from 'kysely';

export interface JobsTable {
  id: Generated<number>;
  kind: string;
  payload: string;
  state: 'queued' | 'running' | 'done' | 'dead';
  run_at: number;
  attempts: Generated<number>;
  max_attempts: number;
  lease_until: number | null;
  locked_by: string | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

export interface RateLimitsTable {
  key: string;
  window_start: number;
  count: number;
  /** When the row stops mattering (the window's end, a ban's end): housekeeping prunes it after. */
  expires_at: number;
}

export interface PlatformTables {
  jobs: JobsTable;
  rate_limits: RateLimitsTable;
}
