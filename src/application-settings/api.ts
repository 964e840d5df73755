// What other features may use of the application settings: the reader, the settings' type, and the
// visibility rules project and group creation and updates follow.
export { currentSettings, readApplicationSettings, readSettingsIn } from './read-settings.js';
export type { ApplicationSettings } from './definitions.js';
export { defaultVisibility, restrictedVisibilityProblem } from './visibility-rules.js';
export { protectedPathThrottle } from './throttles.js';
