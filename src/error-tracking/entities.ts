// Wire shape of error tracking settings (specification, Error tracking settings; GitLab's
// Entities::ErrorTracking::ProjectSetting). The external URL goes out under the specification's name
// and under GitLab's `sentry_external_url`, which go-gitlab reads (docs/decisions.md).
import type { Selectable } from 'kysely';
import type { ErrorTrackingSettingsTable } from '../platform/db/tables/error-tracking.js';
import { displayProjectName, externalUrl } from './tracker-url.js';

export type SettingsRow = Selectable<ErrorTrackingSettingsTable>;

export function settingsEntity(row: SettingsRow) {
  const external = externalUrl(row.api_url);
  return {
    active: row.enabled === 1,
    project_name: displayProjectName(row.project_name, row.api_url),
    tracker_external_url: external,
    sentry_external_url: external,
    api_url: row.api_url,
    integrated: row.integrated === 1,
  };
}
