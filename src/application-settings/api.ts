// What other features may use of the application settings: the reader and the settings' type.
export { readApplicationSettings } from './read-settings.js';
export type { ApplicationSettings } from './definitions.js';
