// The signed-in user's own settings pages: profile, password, preferences, active sessions.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { profilePages } from './profile-page.js';
import { passwordPages } from './password-page.js';
import { preferencesPages } from './preferences-page.js';
import { activeSessionsPages } from './active-sessions-page.js';

export function userSettingsPages(app: FastifyInstance, deps: Deps): void {
  profilePages(app, deps);
  passwordPages(app, deps);
  preferencesPages(app, deps);
  activeSessionsPages(app, deps);
}
