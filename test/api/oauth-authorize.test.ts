import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession, csrfTokenOf } from '../helpers/browser-session.js';
import { approve, authorizeUrl, pkcePair, registerApp, signedIn, tokenCount, type TestApp } from './oauth-driver.js';

let kiln: TestKiln;
let alice: TestUser;
let app: TestApp;
let spa: TestApp;
let web: WebSession;

beforeAll(async () => {
  kiln = await testKiln({ protectedPathsPerMinute: 10_000 });
  alice = await kiln.createUser('alice');
  app = await registerApp(kiln, { name: 'Deploy <Bot>', redirectUri: 'https://client.example/callback\nhttp://127.0.0.1/cb' });
  spa = await registerApp(kiln, { confidential: false, name: 'SPA' });
  web = await signedIn(kiln, alice);
});
afterAll(() => kiln.close());

function expectPageHeaders(headers: Record<string, unknown>) {
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['access-control-allow-origin']).toBeUndefined();
}

describe('GET /oauth/authorize', () => {
  it('as an anonymous user: 302 to sign-in with a return_to back to the same authorize URL', async () => {
    const url = authorizeUrl(app);
    const response = await kiln.request('GET', url);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`/users/sign_in?return_to=${encodeURIComponent(url)}`);
  });

  it('as a signed-in user: a consent page naming the application (escaped) and each scope in words, with Authorize and Deny', async () => {
    const response = await web.get(authorizeUrl(app, { scope: 'api read_user' }));
    expect(response.statusCode).toBe(200);
    expectPageHeaders(response.headers);
    expect(response.body).toContain('Deploy &lt;Bot&gt;');
    expect(response.body).not.toContain('Deploy <Bot>');
    expect(response.body).toContain('Grants complete read/write access to the API');
    expect(response.body).toContain('Grants read-only access to your profile');
    expect(response.body).toMatch(/<button type="submit" name="decision" value="approve">Authorize<\/button>/);
    expect(response.body).toMatch(/value="deny"[^>]*>Deny</);
    expect(response.body).not.toMatch(/(src|href)="https?:\/\//);
  });

  for (const [name, params, text] of [
    ['a missing client_id', { client_id: undefined }, 'Missing required parameter: client_id.'],
    ['an unknown client_id', { client_id: 'nope' }, 'Client authentication failed'],
    ['a missing redirect_uri', { redirect_uri: undefined }, 'The redirect URI included is not valid.'],
    ['an unregistered redirect_uri', { redirect_uri: 'https://evil.example/callback' }, 'The redirect URI included is not valid.'],
    ['a redirect_uri with an extra path', { redirect_uri: 'https://client.example/callback/x' }, 'The redirect URI included is not valid.'],
    ['a redirect_uri with an added query', { redirect_uri: 'https://client.example/callback?x=1' }, 'The redirect URI included is not valid.'],
    ['a redirect_uri with a fragment', { redirect_uri: 'https://client.example/callback#x' }, 'The redirect URI included is not valid.'],
  ] as const) {
    it(`shows an error page and never redirects for ${name}`, async () => {
      const response = await web.get(authorizeUrl(app, params as Record<string, string | undefined>));
      expect(response.statusCode).toBe(400);
      expect(response.headers.location).toBeUndefined();
      expect(response.body).toContain('An error has occurred');
      expect(response.body).toContain(text);
      expectPageHeaders(response.headers);
    });
  }

  it('accepts any port on a registered IP loopback redirect URI (RFC 8252)', async () => {
    const response = await web.get(authorizeUrl(app, { redirect_uri: 'http://127.0.0.1:53211/cb' }));
    expect(response.statusCode).toBe(200);
  });

  const redirectErrors: Array<[string, Record<string, string | undefined>, string, string]> = [
    ['a missing response_type', { response_type: undefined }, 'invalid_request', 'Missing required parameter: response_type.'],
    ['an unknown response_type', { response_type: 'id_token' }, 'unsupported_response_type', 'The authorization server does not support this response type.'],
    ['a scope the application lacks', { scope: 'api sudo' }, 'invalid_scope', 'The requested scope is invalid, unknown, or malformed.'],
    ['plain PKCE', { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }, 'invalid_request', 'Only code_challenge_method S256 is supported.'],
    ['a challenge without a method', { code_challenge: 'a'.repeat(43) }, 'invalid_request', 'Only code_challenge_method S256 is supported.'],
    ['a malformed S256 challenge', { code_challenge: 'short', code_challenge_method: 'S256' }, 'invalid_request', 'code_challenge must be the 43-character base64url SHA-256 of the code verifier.'],
    ['implicit for a confidential application', { response_type: 'token' }, 'unauthorized_client', 'The implicit grant is not available to this application.'],
  ];
  for (const [name, params, error, description] of redirectErrors) {
    it(`redirects ${error} with the description and the state for ${name}, issuing nothing`, async () => {
      const before = await tokenCount(kiln);
      const response = await web.get(authorizeUrl(app, { state: 'xyz ABC/+=', ...params }));
      expect(response.statusCode).toBe(302);
      const location = new URL(String(response.headers.location));
      const values = params.response_type === 'token' ? new URLSearchParams(location.hash.slice(1)) : location.searchParams;
      expect(location.origin + location.pathname).toBe('https://client.example/callback');
      expect(values.get('error')).toBe(error);
      expect(values.get('error_description')).toBe(description);
      expect(values.get('state')).toBe('xyz ABC/+=');
      expect(values.get('code')).toBeNull();
      expect(await tokenCount(kiln)).toBe(before);
    });
  }

  it('redirects invalid_request for a repeated parameter', async () => {
    const response = await web.get(`${authorizeUrl(app)}&scope=api&scope=read_user`);
    expect(response.statusCode).toBe(302);
    expect(new URL(String(response.headers.location)).searchParams.get('error')).toBe('invalid_request');
  });

  it('requires PKCE from a public application', async () => {
    const response = await web.get(authorizeUrl(spa));
    const location = new URL(String(response.headers.location));
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('state')).toBe('st-123');
  });

  it('skips consent for a trusted application and redirects with a code', async () => {
    const trusted = await registerApp(kiln, { trusted: true, name: 'Trusted' });
    const response = await web.get(authorizeUrl(trusted));
    expect(response.statusCode).toBe(302);
    const location = new URL(String(response.headers.location));
    expect(location.searchParams.get('code')).toMatch(/^[0-9a-f]{64}$/);
    expect(location.searchParams.get('state')).toBe('st-123');
  });

  it('scope order does not matter and unknown parameters are ignored', async () => {
    const response = await web.get(authorizeUrl(app, { scope: 'read_user api', foo: 'bar' }));
    expect(response.statusCode).toBe(200);
  });
});

describe('POST /oauth/authorize', () => {
  it('approving answers 303 to the redirect URI with the code and the state', async () => {
    const location = await approve(web, app, { state: 'a-long-state-'.repeat(20) });
    expect(location.origin + location.pathname).toBe('https://client.example/callback');
    expect(location.searchParams.get('code')).toMatch(/^[0-9a-f]{64}$/);
    expect(location.searchParams.get('state')).toBe('a-long-state-'.repeat(20));
  });

  it('works without a state', async () => {
    const location = await approve(web, app, { state: undefined });
    expect(location.searchParams.get('code')).toBeTruthy();
    expect(location.searchParams.has('state')).toBe(false);
  });

  it('denying answers 303 with access_denied and the state, issuing no code', async () => {
    const before = await kiln.deps.db.selectFrom('oauth_access_grants').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const location = await approve(web, app, {}, 'deny');
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('error_description')).toBe('The resource owner or authorization server denied the request.');
    expect(location.searchParams.get('state')).toBe('st-123');
    const after = await kiln.deps.db.selectFrom('oauth_access_grants').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('refuses a POST without the CSRF token with 422 and no redirect', async () => {
    const consent = await web.get(authorizeUrl(app));
    expect(csrfTokenOf(consent.body)).toBeTruthy();
    const response = await kiln.app.inject({
      method: 'POST', url: '/oauth/authorize',
      headers: { cookie: web.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ client_id: app.clientId, redirect_uri: app.redirectUri, response_type: 'code', decision: 'approve' }).toString(),
    });
    expect(response.statusCode).toBe(422);
    expect(response.headers.location).toBeUndefined();
  });

  it('implicit for a public application: the token and state in the fragment, no refresh token', async () => {
    const location = await approve(web, spa, { response_type: 'token', scope: 'read_user' });
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(location.search).toBe('');
    expect(fragment.get('access_token')).toMatch(/^[0-9a-f]{64}$/);
    expect(fragment.get('token_type')).toBe('bearer');
    expect(fragment.get('expires_in')).toBe('7200');
    expect(fragment.get('state')).toBe('st-123');
    expect(fragment.get('refresh_token')).toBeNull();
    const info = JSON.parse((await kiln.request('GET', '/oauth/token/info', { query: { access_token: fragment.get('access_token')! } })).body);
    expect(info.application.uid).toBe(spa.clientId);
  });

  it('PKCE code for a public application carries the challenge', async () => {
    const { challenge } = pkcePair();
    const location = await approve(web, spa, { code_challenge: challenge, code_challenge_method: 'S256' });
    expect(location.searchParams.get('code')).toBeTruthy();
  });
});

describe('GET /oauth/authorize with the implicit grant switched off', () => {
  it('redirects unauthorized_client in the fragment', async () => {
    const off = await testKiln({ allowImplicitGrant: false });
    try {
      const user = await off.createUser('zed');
      const client = await registerApp(off, { confidential: false });
      const session = await signedIn(off, user);
      const response = await session.get(authorizeUrl(client, { response_type: 'token' }));
      const location = new URL(String(response.headers.location));
      expect(new URLSearchParams(location.hash.slice(1)).get('error')).toBe('unauthorized_client');
    } finally {
      await off.close();
    }
  }, 60_000);
});
