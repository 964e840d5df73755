// Behind a reverse proxy every connection comes from the proxy. KILN_TRUSTED_PROXIES names the
// proxies whose X-Forwarded-For is believed, so throttles and the monitoring allow-list see the
// client; from anyone else the header changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';

const PROXY = '10.0.0.2';

async function metrics(kiln: TestKiln, remoteAddress: string, forwardedFor?: string) {
  const response = await kiln.app.inject({ method: 'GET', url: '/-/metrics', remoteAddress, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} });
  return response.statusCode;
}

async function passwordGrant(kiln: TestKiln, remoteAddress: string, forwardedFor: string) {
  const response = await kiln.app.inject({
    method: 'POST',
    url: '/oauth/token',
    remoteAddress,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': forwardedFor },
    payload: 'grant_type=password&username=root&password=wrong-password&client_id=none',
  });
  return response.statusCode;
}

describe('GET /-/metrics and throttles behind a reverse proxy', () => {
  describe('without KILN_TRUSTED_PROXIES', () => {
    let kiln: TestKiln;
    beforeAll(async () => {
      kiln = await testKiln({ protectedPathsPerMinute: 2 });
    });
    afterAll(() => kiln.close());

    it('ignores X-Forwarded-For: the connection\'s address decides', async () => {
      expect(await metrics(kiln, '127.0.0.1', '203.0.113.5')).toBe(200);
      expect(await metrics(kiln, '198.51.100.7', '127.0.0.1')).toBe(404);
    });

    it('counts every client of the proxy as the proxy', async () => {
      expect(await passwordGrant(kiln, PROXY, '203.0.113.10')).not.toBe(429);
      expect(await passwordGrant(kiln, PROXY, '203.0.113.11')).not.toBe(429);
      expect(await passwordGrant(kiln, PROXY, '203.0.113.12')).toBe(429);
    });
  });

  describe('with KILN_TRUSTED_PROXIES=10.0.0.0/24', () => {
    let kiln: TestKiln;
    beforeAll(async () => {
      kiln = await testKiln({ protectedPathsPerMinute: 2, trustedProxies: ['10.0.0.0/24'] });
    });
    afterAll(() => kiln.close());

    it('sees the client named by the proxy in the monitoring allow-list', async () => {
      expect(await metrics(kiln, PROXY, '203.0.113.5')).toBe(404);
      expect(await metrics(kiln, PROXY, '127.0.0.1')).toBe(200);
    });

    it('believes X-Forwarded-For only from the proxy', async () => {
      expect(await metrics(kiln, '198.51.100.7', '127.0.0.1')).toBe(404);
    });

    it('throttles each client of the proxy on its own', async () => {
      expect(await passwordGrant(kiln, PROXY, '203.0.113.20')).not.toBe(429);
      expect(await passwordGrant(kiln, PROXY, '203.0.113.20')).not.toBe(429);
      expect(await passwordGrant(kiln, PROXY, '203.0.113.20')).toBe(429);
      expect(await passwordGrant(kiln, PROXY, '203.0.113.21')).not.toBe(429);
    });
  });
});
