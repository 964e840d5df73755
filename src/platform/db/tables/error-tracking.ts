// Tables of the error-tracking feature: one settings row per project (GitLab's
// project_error_tracking_settings), created by configuring it, toggled by PATCH.
export interface ErrorTrackingSettingsTable {
  project_id: number;
  enabled: number;
  /** GitLab's integrated error tracking (14.2+): no external tracker, so no api_url or token needed. */
  integrated: number;
  api_url: string | null;
  project_name: string | null;
  organization_name: string | null;
  /** The tracker's auth token, sealed with the instance key (docs/architecture.md, secrets at rest). */
  token_sealed: string | null;
  created_at: number;
  updated_at: number;
}

export interface ErrorTrackingTables {
  error_tracking_settings: ErrorTrackingSettingsTable;
}
