// What features register at setup for the platform to call: token resolvers, the Sudo look-up, the
// subject finders and the browser sessions. Platform code asks these hooks; it never imports a feature.
import type { AuthUser, TokenResolver } from './principal.js';
import type { SubjectFinders } from './subjects.js';
import type { BrowserSessions } from './browser-sessions.js';

/** Resolvers are registered by features (accounts registers PATs, oauth registers access tokens). */
export interface AuthRegistry {
  oauth: TokenResolver[];
  personalAccessToken: TokenResolver[];
  findUserForSudo?: (idOrUsername: string) => Promise<AuthUser | null>;
  /** Project and group look-ups with their ability check (accounts registers them). */
  subjects?: SubjectFinders;
  /** Browser sessions of the pages (accounts registers them). */
  sessions?: BrowserSessions;
}

export function newAuthRegistry(): AuthRegistry {
  return { oauth: [], personalAccessToken: [] };
}
