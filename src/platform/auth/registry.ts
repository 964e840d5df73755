// What features register at setup for the platform to call: token resolvers, the Sudo look-up, the
// subject finders and the browser sessions. Platform code asks these hooks; it never imports a feature.
import type { AuthUser, TokenLookup, TokenResolver } from './principal.js';
import type { PrefetchedProject, SubjectFinders } from './subjects.js';
import type { BrowserSessions } from './browser-sessions.js';
import type { FastifyRequest } from 'fastify';
import type { Throttled } from '../rate-limit.js';

/** Resolvers are registered by features (accounts registers PATs, oauth registers access tokens). */
export interface AuthRegistry {
  oauth: TokenResolver[];
  personalAccessToken: TokenResolver[];
  /**
   * A personal access token and the project a route names (by id or path), in one statement: the
   * route kit's look-up for project-scoped routes (accounts registers it). `project` is null when no
   * project has that id or path (the route's own look-up then answers, redirects included).
   */
  personalAccessTokenWithProject?: (token: string, idOrPath: string) => Promise<{ lookup: TokenLookup; project: PrefetchedProject | null }>;
  findUserForSudo?: (idOrUsername: string) => Promise<AuthUser | null>;
  /** A CI job token (`JOB-TOKEN`, `job_token`) on the routes that take one: a running job's principal (ci registers it). */
  jobToken?: TokenResolver;
  /** Whether a job of `jobProjectId` may reach `targetProjectId` with its token: the target's job token scope (ci registers it). */
  jobTokenReaches?: (jobProjectId: number, targetProjectId: number) => Promise<boolean>;
  /** Project and group look-ups with their ability check (accounts registers them). */
  subjects?: SubjectFinders;
  /** Browser sessions of the pages (accounts registers them). */
  sessions?: BrowserSessions;
  /** The signed-in user's pending to-do count for the pages' top bar (todos registers it). */
  todosCount?: (user: AuthUser) => Promise<number>;
  /**
   * The broadcast messages a page shows its visitor (broadcast-messages registers it): banners above
   * the page, notifications below it. `level` is the visitor's access to the page's project or group,
   * null on a page of neither. The markup is the feature's, escaped and sanitised there.
   */
  /**
   * Counts an API or page request against the user and IP rate limits once its caller is known
   * (application-settings registers it); what refused it, or null.
   */
  throttle?: (request: FastifyRequest, user: AuthUser | null, kind: 'api' | 'web') => Promise<Throttled | null>;
  broadcastMessages?: (view: { request: FastifyRequest; user: AuthUser | null; level: number | null; csrfToken: string }) => Promise<{ banners: string; notifications: string } | null>;
}

export function newAuthRegistry(): AuthRegistry {
  return { oauth: [], personalAccessToken: [] };
}
