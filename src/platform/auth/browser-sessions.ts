// A browser's session as the page framework (platform/web/page-route.ts) sees it. How sessions are
// stored, started and signed in belongs to the accounts feature, which registers them at setup
// (AuthRegistry.sessions), as it registers the subject finders: platform never imports a feature.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthUser } from './principal.js';

export interface Session {
  /** Digest of the cookie value (the primary key of a stored session). */
  idDigest: string;
  /** Whether the session has a database row; anonymous sessions have none. */
  stored: boolean;
  user: AuthUser | null;
  pendingUserId: number | null;
  csrfToken: string;
  flash: string | null;
  /** The signed-in user's chosen colours (`system`: the browser's preference; anonymous visitors too). */
  theme?: 'light' | 'dark' | 'system';
  /** The signed-in user's avatar, a path on this host (the uploaded file or the generated SVG). */
  avatarUrl?: string | null;
  /** The administrator acting as `user` (impersonation), shown in every page's banner. */
  impersonator?: { id: number; username: string } | null;
  /** The signed-in user's primary address while it awaits confirmation (email_confirmation_setting `soft`): a banner asks for it. */
  unconfirmedEmail?: string | null;
}

export interface BrowserSessions {
  /** The request's session, or null when it has none (or an expired one). */
  load(request: FastifyRequest): Promise<Session | null>;
  /** A fresh anonymous session (new cookie), dropping the request's old one. */
  startAnonymous(request: FastifyRequest, reply: FastifyReply): Promise<Session>;
  /** The message shown on the next page. */
  setFlash(reply: FastifyReply, session: Session, flash: string | null): Promise<void>;
}
