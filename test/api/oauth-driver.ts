// Drives the authorize → sign in → consent → token dance through inject, so each OAuth test changes
// one thing (docs/architecture.md, Tests). Not a test file itself.
import { createHash, randomBytes } from 'node:crypto';
import type { TestKiln, TestUser } from '../helpers/kiln.js';
import { WebSession, csrfTokenOf } from '../helpers/browser-session.js';
import { createApplication } from '../../src/oauth/applications.js';

export const REDIRECT = 'https://client.example/callback';

export interface TestApp {
  id: number;
  clientId: string;
  secret: string;
  redirectUri: string;
}

export async function registerApp(kiln: TestKiln, options: { confidential?: boolean; scopes?: string; redirectUri?: string; trusted?: boolean; name?: string } = {}): Promise<TestApp> {
  const redirectUri = options.redirectUri ?? REDIRECT;
  const { application, secret } = await createApplication(kiln.deps, {
    name: options.name ?? 'Test client',
    redirectUri,
    scopes: options.scopes ?? 'api read_user openid profile email',
    confidential: options.confidential ?? true,
    trusted: options.trusted,
    ownerId: null,
  });
  return { id: Number(application.id), clientId: application.uid, secret, redirectUri: redirectUri.split('\n')[0] };
}

export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export async function signedIn(kiln: TestKiln, user: TestUser): Promise<WebSession> {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

export function authorizeUrl(app: TestApp, params: Record<string, string | undefined> = {}): string {
  const query = new URLSearchParams();
  const all: Record<string, string | undefined> = { client_id: app.clientId, redirect_uri: app.redirectUri, response_type: 'code', state: 'st-123', ...params };
  for (const [key, value] of Object.entries(all)) if (value !== undefined) query.set(key, value);
  return `/oauth/authorize?${query.toString()}`;
}

/** GET the consent page, then approve it; returns the Location the browser would follow. */
export async function approve(web: WebSession, app: TestApp, params: Record<string, string | undefined> = {}, decision = 'approve'): Promise<URL> {
  const consent = await web.get(authorizeUrl(app, params));
  if (consent.statusCode !== 200) throw new Error(`consent page: ${consent.statusCode} ${consent.headers.location ?? consent.body.slice(0, 300)}`);
  const form: Record<string, string> = { decision, authenticity_token: csrfTokenOf(consent.body) };
  for (const match of consent.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    if (match[1] !== 'authenticity_token') form[match[1]] = decodeEntities(match[2]);
  }
  const response = await web.post('/oauth/authorize', form);
  if (response.statusCode !== 303) throw new Error(`consent POST: ${response.statusCode} ${response.body.slice(0, 300)}`);
  return new URL(String(response.headers.location));
}

function decodeEntities(value: string): string {
  return value.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

export async function codeFor(kiln: TestKiln, user: TestUser, app: TestApp, params: Record<string, string | undefined> = {}): Promise<string> {
  const location = await approve(await signedIn(kiln, user), app, params);
  const code = location.searchParams.get('code');
  if (!code) throw new Error(`no code in ${location}`);
  return code;
}

export function basic(id: string, secret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}`;
}

export async function tokenRequest(kiln: TestKiln, form: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await kiln.request('POST', '/oauth/token', { form, headers });
  return { status: response.statusCode, body: JSON.parse(response.body || 'null'), headers: response.headers };
}

export async function exchangeCode(kiln: TestKiln, app: TestApp, code: string, extra: Record<string, string> = {}) {
  return tokenRequest(kiln, { grant_type: 'authorization_code', code, redirect_uri: app.redirectUri, client_id: app.clientId, client_secret: app.secret, ...extra });
}

/** A fresh access/refresh pair for `user` through the code flow. */
export async function tokensFor(kiln: TestKiln, user: TestUser, app: TestApp, params: Record<string, string | undefined> = {}) {
  const code = await codeFor(kiln, user, app, params);
  const result = await exchangeCode(kiln, app, code);
  if (result.status !== 200) throw new Error(`exchange failed: ${JSON.stringify(result.body)}`);
  return result.body as { access_token: string; refresh_token: string; scope: string; expires_in: number; created_at: number; id_token?: string };
}

export async function tokenCount(kiln: TestKiln): Promise<number> {
  const row = await kiln.deps.db.selectFrom('oauth_access_tokens').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export function expectNoStore(headers: Record<string, unknown>): void {
  if (headers['cache-control'] !== 'no-store' || headers.pragma !== 'no-cache') throw new Error(`missing no-store/no-cache: ${JSON.stringify(headers)}`);
}
