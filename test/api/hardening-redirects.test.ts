// Redirect targets with characters a header cannot carry are percent-encoded, never a 500 (issue 13,
// item 6): Node refuses such a Location when the response is written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { encodeLocation } from '../../src/platform/http/location.js';
import { approve, registerApp, signedIn } from './oauth-driver.js';

let kiln: TestKiln;
let alice: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
});
afterAll(() => kiln.close());

describe('POST /users/sign_in', () => {
  describe('with a return_to outside ASCII', () => {
    it.each([
      ['/alice/café?q=ü ☃', '/alice/caf%C3%A9?q=%C3%BC%20%E2%98%83'],
      ['/alice/caf%C3%A9', '/alice/caf%C3%A9'],
      ['/alice/\u{1F525}', '/alice/%F0%9F%94%A5'],
      ['/alice/\uD800x', '/alice/%EF%BF%BDx'],
    ])('redirects to %j percent-encoded', async (returnTo, location) => {
      const web = new WebSession(kiln);
      const response = await web.post('/users/sign_in', { login: 'alice', password: alice.password, return_to: returnTo }, { csrfFrom: '/users/sign_in' });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(location);
    });
  });
});

describe('GET /users/sign_in', () => {
  describe('as a signed-in user', () => {
    it('redirects to a non-ASCII return_to percent-encoded', async () => {
      const web = await signedIn(kiln, alice);
      const response = await web.get(`/users/sign_in?return_to=${encodeURIComponent('/alice/naïve/-/issues')}`);
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe('/alice/na%C3%AFve/-/issues');
    });
  });
});

describe('POST /oauth/authorize', () => {
  describe('for an application whose redirect URI is not ASCII', () => {
    it('redirects with the code to the URI percent-encoded', async () => {
      const app = await registerApp(kiln, { redirectUri: 'https://client.example/rückruf' });
      const web = await signedIn(kiln, alice);
      const location = await approve(web, app);
      expect(location.pathname).toBe('/r%C3%BCckruf');
      expect(location.searchParams.get('code')).toBeTruthy();
    });
  });
});

describe('encodeLocation', () => {
  it.each([
    ['/plain/path?x=1#frag', '/plain/path?x=1#frag'],
    ['/a b', '/a%20b'],
    ['/tab\there', '/tab%09here'],
    ['/x\r\nSet-Cookie: y', '/x%0D%0ASet-Cookie:%20y'],
    ['https://host.example/ä', 'https://host.example/%C3%A4'],
  ])('%j → %j', (location, encoded) => {
    expect(encodeLocation(location)).toBe(encoded);
  });
});
