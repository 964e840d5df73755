// Real OAuth client libraries against a started Kiln (docs/clients.md), then python-gitlab with the token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import * as client from 'openid-client';
import { AuthorizationCode, ResourceOwnerPassword } from 'simple-oauth2';
import ClientOAuth2 from 'client-oauth2';
import { apiCall, ROOT_PASSWORD, startKilnProcess, type KilnProcess } from './helpers/server.js';
import { runPython } from './helpers/python.js';
import { consent, signIn, type CookieJar } from './oauth-browserless.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
let kiln: KilnProcess;
let jar: CookieJar;
let confidential: { application_id: string; secret: string };
let publicApp: { application_id: string; secret: string };

beforeAll(async () => {
  kiln = await startKilnProcess({ env: { KILN_PROTECTED_PATHS_PER_MINUTE: '1000' } });
  confidential = await apiCall(kiln, 'POST', '/applications', { name: 'Confidential', redirect_uri: REDIRECT, scopes: 'api read_user openid profile email' });
  publicApp = await apiCall(kiln, 'POST', '/applications', { name: 'Public', redirect_uri: REDIRECT, scopes: 'api read_user', confidential: false });
  jar = await signIn(kiln.url, 'root', ROOT_PASSWORD);
});
afterAll(() => kiln?.stop());

describe('oauth4webapi', () => {
  const as = () => ({ issuer: kiln.url, authorization_endpoint: `${kiln.url}/oauth/authorize`, token_endpoint: `${kiln.url}/oauth/token`, revocation_endpoint: `${kiln.url}/oauth/revoke` });
  const options = { [oauth.allowInsecureRequests]: true };

  it('code + PKCE with client_secret_basic, refresh, revoke', async () => {
    const c: oauth.Client = { client_id: confidential.application_id };
    const auth = oauth.ClientSecretBasic(confidential.secret);
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as().authorization_endpoint);
    for (const [key, value] of Object.entries({ client_id: c.client_id, redirect_uri: REDIRECT, response_type: 'code', scope: 'api', state, code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' })) {
      url.searchParams.set(key, value);
    }
    const callback = await consent(jar, url.toString());
    const params = oauth.validateAuthResponse(as(), c, callback, state);
    const tokens = await oauth.processAuthorizationCodeResponse(as(), c, await oauth.authorizationCodeGrantRequest(as(), c, auth, params, REDIRECT, verifier, options));
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.scope).toBe('api');
    const refreshed = await oauth.processRefreshTokenResponse(as(), c, await oauth.refreshTokenGrantRequest(as(), c, auth, tokens.refresh_token!, options));
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    await oauth.processRevocationResponse(await oauth.revocationRequest(as(), c, auth, refreshed.access_token, options));
    const info = await fetch(`${kiln.url}/oauth/token/info`, { headers: { authorization: `Bearer ${refreshed.access_token}` } });
    expect(info.status).toBe(401);
  });

  it('password grant through genericTokenEndpointRequest', async () => {
    const c: oauth.Client = { client_id: confidential.application_id };
    const response = await oauth.genericTokenEndpointRequest(as(), c, oauth.ClientSecretBasic(confidential.secret), 'password', new URLSearchParams({ username: 'root', password: ROOT_PASSWORD, scope: 'api' }), options);
    const tokens = await oauth.processGenericTokenEndpointResponse(as(), c, response);
    expect(tokens.access_token).toMatch(/^[0-9a-f]{64}$/);
    expect(tokens.refresh_token).toBeUndefined();
  });

  it('surfaces invalid_grant for a wrong password as a ResponseBodyError', async () => {
    const c: oauth.Client = { client_id: confidential.application_id };
    const response = await oauth.genericTokenEndpointRequest(as(), c, oauth.ClientSecretBasic(confidential.secret), 'password', new URLSearchParams({ username: 'root', password: 'wrong-password' }), options);
    await expect(oauth.processGenericTokenEndpointResponse(as(), c, response)).rejects.toMatchObject({ error: 'invalid_grant' });
  });
});

describe('openid-client', () => {
  it('discovers the server, then code + PKCE with client_secret_post, id_token verified, refresh, revoke, password', async () => {
    const config = await client.discovery(new URL(kiln.url), confidential.application_id, confidential.secret, client.ClientSecretPost(confidential.secret), { execute: [client.allowInsecureRequests] });
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid profile email api', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state, nonce });
    const callback = await consent(jar, url.toString());
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
    expect(tokens.claims()?.preferred_username).toBe('root');
    const info = await client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
    expect(info.preferred_username).toBe('root');
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).toBeTruthy();
    await client.tokenRevocation(config, refreshed.access_token);
    const password = await client.genericGrantRequest(config, 'password', { username: 'root', password: ROOT_PASSWORD });
    expect(password.access_token).toBeTruthy();
  });

  it('a public client: code + PKCE with client_id only', async () => {
    const config = new client.Configuration({ issuer: kiln.url, authorization_endpoint: `${kiln.url}/oauth/authorize`, token_endpoint: `${kiln.url}/oauth/token` }, publicApp.application_id, undefined, client.None());
    client.allowInsecureRequests(config);
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'read_user', code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state });
    const tokens = await client.authorizationCodeGrant(config, await consent(jar, url.toString()), { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.scope).toBe('read_user');
  });
});

describe('simple-oauth2', () => {
  it('code + PKCE with its default GitLab paths, refresh, revokeAll; password grant', async () => {
    const ac = new AuthorizationCode({ client: { id: confidential.application_id, secret: confidential.secret }, auth: { tokenHost: kiln.url } });
    const verifier = oauth.generateRandomCodeVerifier();
    const url = ac.authorizeURL({ redirect_uri: REDIRECT, scope: 'api', state: 's1', code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' } as Parameters<typeof ac.authorizeURL>[0]);
    const callback = await consent(jar, url);
    expect(callback.searchParams.get('state')).toBe('s1');
    const token = await ac.getToken({ code: callback.searchParams.get('code')!, redirect_uri: REDIRECT, code_verifier: verifier } as Parameters<typeof ac.getToken>[0]);
    const refreshed = await token.refresh();
    expect(refreshed.token.refresh_token).toBeTruthy();
    expect(refreshed.token.refresh_token).not.toBe(token.token.refresh_token);
    await refreshed.revokeAll();
    expect((await fetch(`${kiln.url}/oauth/token/info?access_token=${refreshed.token.access_token}`)).status).toBe(401);

    const owner = new ResourceOwnerPassword({ client: { id: confidential.application_id, secret: confidential.secret }, auth: { tokenHost: kiln.url } });
    const password = await owner.getToken({ username: 'root', password: ROOT_PASSWORD, scope: 'api' });
    expect(password.token.access_token).toBeTruthy();
  });
});

describe('client-oauth2', () => {
  it('implicit grant: parses the fragment and checks the state', async () => {
    const auth = new ClientOAuth2({ clientId: publicApp.application_id, authorizationUri: `${kiln.url}/oauth/authorize`, redirectUri: REDIRECT, scopes: ['read_user'], state: 'implicit-state' });
    const callback = await consent(jar, auth.token.getUri());
    const token = await auth.token.getToken(callback.toString());
    expect(token.accessToken).toMatch(/^[0-9a-f]{64}$/);
    expect(token.refreshToken).toBeUndefined();
    const info = await (await fetch(`${kiln.url}/oauth/token/info`, { headers: { authorization: `Bearer ${token.accessToken}` } })).json();
    // The specification: implicit clients must check the application id in the token info.
    expect(info.application.uid).toBe(publicApp.application_id);
  });
});

describe('python-gitlab', () => {
  it('calls /user with oauth_token=', async () => {
    const tokens = await (await fetch(`${kiln.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', username: 'root', password: ROOT_PASSWORD }),
    })).json();
    const { stdout } = await runPython(
      `import gitlab, os\ngl = gitlab.Gitlab(os.environ['URL'], oauth_token=os.environ['TOKEN'])\ngl.auth()\nprint(gl.user.username)`,
      { URL: kiln.url, TOKEN: tokens.access_token },
    );
    expect(stdout.trim()).toBe('root');
  });
});
