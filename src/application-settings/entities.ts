// GitLab's ApplicationSetting entity for the settings Kiln has, with the legacy names it still
// exposes (signin_enabled, password_authentication_enabled, allow_local_requests_from_hooks_and_services).
import { isoTime } from '../platform/clock.js';
import { SETTING_NAMES } from './definitions.js';
import type { StoredSettings } from './read-settings.js';

export function applicationSettingEntity(settings: StoredSettings) {
  const { values } = settings;
  return {
    id: 1,
    created_at: isoTime(settings.createdAt),
    updated_at: isoTime(settings.updatedAt),
    ...Object.fromEntries(SETTING_NAMES.map((name) => [name, values[name]])),
    signin_enabled: values.password_authentication_enabled_for_web,
    password_authentication_enabled: values.password_authentication_enabled_for_web,
    allow_local_requests_from_hooks_and_services: values.allow_local_requests_from_web_hooks_and_services,
    // GitLab 15.8's deprecated housekeeping settings, as its entity still exposes them.
    housekeeping_bitmaps_enabled: true,
    housekeeping_full_repack_period: values.housekeeping_optimize_repository_period,
    housekeeping_gc_period: values.housekeeping_optimize_repository_period,
    housekeeping_incremental_repack_period: values.housekeeping_optimize_repository_period,
  };
}
