// The one way to declare a web page: session → instance ability → CSRF (on POST) → the declared
// project or group found and its ability checked → handler → page or redirect.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.js';
import type { AuthUser } from '../auth/principal.js';
import { safeEqual } from '../crypto.js';
import { sendThrottled } from '../rate-limit.js';
import { namespacedRoute, type NamespacedMethod } from '../http/namespaced-routes.js';
import { toApiError } from '../http/error-handler.js';
import { encodeLocation } from '../http/location.js';
import { NotFoundError, ForbiddenError, FeatureUnavailableError } from '../errors.js';
import { html, raw, type Html } from './html.js';
import { layout, type LayoutInput, type PageFrame } from './layout.js';
import type { BrowserSessions, Session } from '../auth/browser-sessions.js';
import type { PageOutcome } from './page.js';
import type { GroupAccess, ProjectAccess, RouteAbility } from '../auth/subjects.js';
import type { Principal } from '../auth/principal.js';
import { declaredSubject, groupOf, patternHasGroup, projectOf, resolveSubject, urlHasParam, type DeclaredSubject } from '../auth/route-subject.js';
import type { GroupAbility, ProjectAbility, ProjectFeature } from '../auth/policies/abilities.js';
import { canOnInstance } from '../auth/policies/policy.js';

export interface PageContext {
  request: FastifyRequest;
  reply: FastifyReply;
  deps: Deps;
  /** The signed-in user; always set on `auth: 'required'` pages. */
  user: AuthUser;
  session: Session;
  form: Record<string, string | string[]>;
  query: Record<string, string>;
  params: Record<string, string>;
  /** Named groups of a namespaced page's pattern. */
  match: Record<string, string>;
  /**
   * The project of a namespaced page (its `path` group, or the declared `param`), found and checked
   * against the page's declared ability before the handler ran; with another `ability`, that one is
   * checked on the same project (403 without it).
   */
  project(ability?: ProjectAbility): Promise<ProjectAccess>;
  /** The group of a page (its `path` match group, or the `:group` parameter of a fixed URL), as `project`. */
  group(ability?: GroupAbility): Promise<GroupAccess>;
}

export interface PageSpec {
  method: 'GET' | 'POST';
  /** What the page lets its visitor do (platform/auth/subjects.ts); every page declares one. */
  ability: RouteAbility;
  auth?: 'required' | 'optional';
  /**
   * The project feature the page belongs to: while it is not there for the visitor (disabled, or
   * private and they are no member), the page answers 404, as GitLab's check_<feature>_available!
   * does, so it does not reveal what it would show (anonymous visitors of an `auth: 'optional'` page
   * too, who are not asked to sign in). A visitor who has the feature but not the declared ability
   * still gets the 403 page.
   */
  feature?: ProjectFeature;
  handler: (context: PageContext) => Promise<PageOutcome>;
}

/** Headers on every page: no framing, no referrer leaks, only our own assets (docs/security.md, ASVS V3/V14). */
export function setPageSecurityHeaders(reply: FastifyReply): void {
  reply.header('content-security-policy', "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'");
  reply.header('x-frame-options', 'DENY');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-content-type-options', 'nosniff');
  reply.header('cache-control', 'no-store');
}

export function csrfField(context: { session: Session }): Html {
  return html`<input type="hidden" name="authenticity_token" value="${context.session.csrfToken}">`;
}

/** A form field's text: strings, and numbers or booleans from a JSON body; anything else is no text. */
function fieldText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : null;
}

/**
 * The form's text fields and lists of text. Nested fields (`a[b]=`, parsed into prototype-less bags
 * by param-bag.ts) and files are not a page form's text and are left out, so hostile names cannot
 * reach a handler as something it would have to stringify (issue 33: that was a 500).
 */
function formOf(body: unknown): Record<string, string | string[]> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return {};
  const form: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (Array.isArray(value)) form[key] = value.map(fieldText).filter((item): item is string => item !== null);
    else {
      const text = fieldText(value);
      if (text !== null) form[key] = text;
    }
  }
  return form;
}

export function renderPage(reply: FastifyReply, status: number, title: string, body: Html, session: Session | null, flash?: string | null, frame: PageFrame & Pick<LayoutInput, 'todosCount' | 'broadcasts'> = {}): FastifyReply {
  setPageSecurityHeaders(reply);
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(layout({ title, body, user: session?.user ?? null, csrfToken: session?.csrfToken ?? null, flash, theme: session?.theme, avatarUrl: session?.avatarUrl, impersonator: session?.impersonator, unconfirmedEmail: session?.unconfirmedEmail, ...frame }).value);
}

function renderNotFound(reply: FastifyReply, session: Session): FastifyReply {
  return renderPage(reply, 404, 'Page not found', html`<p>The page could not be found or you do not have permission to see it.</p>`, session);
}

function sessionsOf(deps: Deps): BrowserSessions {
  if (!deps.auth.sessions) throw new Error('no browser sessions registered (the accounts feature registers them at setup)');
  return deps.auth.sessions;
}

async function runPage(deps: Deps, spec: PageSpec, subject: DeclaredSubject | null, request: FastifyRequest, reply: FastifyReply, match: Record<string, string>): Promise<FastifyReply> {
  const sessions = sessionsOf(deps);
  let session = await sessions.load(request);
  // The user and IP rate limits for web requests, per signed-in user or per address.
  const throttled = deps.auth.throttle ? await deps.auth.throttle(request, session?.user ?? null, 'web') : null;
  if (throttled) {
    setPageSecurityHeaders(reply);
    return sendThrottled(reply, throttled);
  }
  if (!session?.user && spec.auth !== 'optional') {
    const returnTo = request.method === 'GET' ? request.url : '/';
    setPageSecurityHeaders(reply);
    return reply.redirect(`/users/sign_in?return_to=${encodeURIComponent(returnTo)}`, 302);
  }
  // Anonymous visitors get a session too, so their forms (sign-in) carry a CSRF token; it is a cookie
  // and an HMAC, not a row (accounts/anonymous-sessions.ts).
  session ??= await sessions.startAnonymous(request, reply);
  // Instance abilities are the kit's to enforce, as the API route kit does: a signed-in user without
  // one sees the 403 page; an anonymous visitor of an `auth: 'optional'` page is asked to sign in.
  if ('instance' in spec.ability && !canOnInstance(session.user, spec.ability.instance)) {
    if (!session.user) {
      setPageSecurityHeaders(reply);
      return reply.redirect(`/users/sign_in?return_to=${encodeURIComponent(request.method === 'GET' ? request.url : '/')}`, 302);
    }
    // The admin area does not reveal itself: GitLab answers its pages 404 to everyone but
    // administrators (Admin::ApplicationController's authenticate_admin!).
    if (spec.ability.instance === 'admin_all_resources') return renderNotFound(reply, session);
    return renderPage(reply, 403, 'Access denied', html`<p>You are not allowed to see this page.</p>`, session);
  }
  const form = formOf(request.body);
  if (request.method === 'POST') {
    const token = typeof form.authenticity_token === 'string' ? form.authenticity_token : (request.headers['x-csrf-token'] as string | undefined);
    if (!token || !safeEqual(token, session.csrfToken)) {
      return renderPage(reply, 422, 'The change you requested was rejected', html`<p class="error">Your form expired or did not come from Kiln. Go back, reload the page and try again.</p>`, session);
    }
  }
  const params = (request.params ?? {}) as Record<string, string>;
  const principal: Principal | null = session.user ? { user: session.user as AuthUser, scopes: ['api'], via: 'session', tokenId: null } : null;
  let outcome: PageOutcome;
  // The visitor's level on the page's project or group (broadcast messages aimed at some roles).
  let subjectLevel: number | null;
  try {
    // The declared subject and its ability, before the handler (a 404 here is answered as the
    // handler's would be: anonymous visitors are asked to sign in).
    const access = subject === null ? null : await resolveSubject(deps.auth.subjects, subject, principal, match[subject.param] ?? params[subject.param], undefined, spec.feature);
    subjectLevel = access?.level ?? null;
    const context: PageContext = {
      request,
      reply,
      deps,
      user: session.user as AuthUser,
      session,
      form,
      query: (request.query ?? {}) as Record<string, string>,
      params,
      match,
      project: async (ability) => projectOf(subject, access, ability),
      group: async (ability) => groupOf(subject, access, ability),
    };
    outcome = await spec.handler(context);
  } catch (error) {
    // GitLab asks anonymous visitors to sign in rather than telling them a private page is missing;
    // a page reached by a credential of its own (a signed link) has nothing a sign-in would show.
    if (error instanceof NotFoundError && !session.user && request.method === 'GET' && !('credential' in spec.ability)) {
      setPageSecurityHeaders(reply);
      return reply.redirect(`/users/sign_in?return_to=${encodeURIComponent(request.url)}`, 302);
    }
    if (error instanceof FeatureUnavailableError) return renderNotFound(reply, session);
    if (error instanceof NotFoundError || error instanceof ForbiddenError) {
      const status = error instanceof NotFoundError ? 404 : 403;
      if (status === 404) return renderNotFound(reply, session);
      return renderPage(reply, status, 'Access denied', html`<p>You are not allowed to do this.</p>`, session);
    }
    const apiError = toApiError(error);
    if (apiError && apiError.status < 500) {
      const message = typeof apiError.body.message === 'string' ? apiError.body.message : JSON.stringify(apiError.body.message ?? apiError.body.error);
      return renderPage(reply, apiError.status, 'Something is wrong', html`<p class="error">${message}</p>`, session);
    }
    throw error;
  }
  if (reply.sent || outcome.kind === 'answered') return reply;
  if (outcome.kind === 'fragment') {
    setPageSecurityHeaders(reply);
    return reply.code(outcome.status ?? 200).type('text/html; charset=utf-8').send(outcome.body.value);
  }
  if (outcome.kind === 'redirect') {
    // The handler may have started another session (sign-in, or a second step that timed out): the
    // message belongs to the one the browser will hold.
    if (outcome.flash) await sessions.setFlash(reply, (await sessions.load(request)) ?? session, outcome.flash);
    setPageSecurityHeaders(reply);
    return reply.redirect(encodeLocation(outcome.location), outcome.status ?? 303);
  }
  const flash = outcome.flash ?? session.flash;
  if (session.flash) await sessions.setFlash(reply, session, null);
  const [todosCount, messages] = await Promise.all([
    session.user && deps.auth.todosCount ? deps.auth.todosCount(session.user) : undefined,
    deps.auth.broadcastMessages?.({ request, user: (session.user as AuthUser | null) ?? null, level: subjectLevel, csrfToken: session.csrfToken }) ?? null,
  ]);
  const broadcasts = messages && { banners: raw(messages.banners), notifications: raw(messages.notifications) };
  return renderPage(reply, outcome.status ?? 200, outcome.title, outcome.body, session, flash, { sidebar: outcome.sidebar, heading: outcome.heading, scripts: outcome.scripts, todosCount, broadcasts });
}

export function pageRoute(app: FastifyInstance, deps: Deps, spec: PageSpec & { url: string }): void {
  const subject = declaredSubject(spec.ability, `${spec.method} ${spec.url}`, 'project' in spec.ability ? 'project' : 'group', (param) => urlHasParam(spec.url, param));
  app.route({ method: spec.method, url: spec.url, config: { ability: spec.ability, subjectChecked: subject !== null }, handler: (request, reply) => runPage(deps, spec, subject, request, reply, {}) });
}

/** A page under a project's or group's full path, e.g. `/^(?<path>.+?)\/-\/alert_management$/`. */
export function namespacedPage(app: FastifyInstance, deps: Deps, spec: PageSpec & { pattern: RegExp }): void {
  const subject = declaredSubject(spec.ability, `${spec.method} ${String(spec.pattern)}`, 'path', (param) => patternHasGroup(spec.pattern, param));
  namespacedRoute(app, {
    method: spec.method as NamespacedMethod,
    pattern: spec.pattern,
    ability: spec.ability,
    subjectChecked: subject !== null,
    handler: (request, reply, groups) => runPage(deps, spec, subject, request, reply, groups),
  });
}
