import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';

let kiln: TestKiln;
beforeAll(async () => {
  kiln = await testKiln();
});
afterAll(() => kiln.close());

describe('GET /api/v4/version', () => {
  it('as a user returns the GitLab version Kiln speaks and Kiln\'s revision', async () => {
    const user = await kiln.createUser('reader', { scopes: ['read_api'] });
    const { status, body, headers } = await kiln.api('GET', '/version', { token: user.token });
    expect(status).toBe(200);
    expect(headers['content-type']).toBe('application/json');
    expect(body).toMatchObject({ version: '14.3.0', enterprise: true });
    expect(body.revision).toMatch(/^kiln-\d+\.\d+\.\d+$/);
  });

  it('without credentials answers 401 (every REST endpoint needs a user)', async () => {
    expect((await kiln.api('GET', '/version')).status).toBe(401);
  });

  it('says enterprise false on the free tier', async () => {
    const free = await (await import('../helpers/kiln.js')).testKiln({ tier: 'free' });
    try {
      expect((await free.api('GET', '/version', { token: free.root.token })).body.enterprise).toBe(false);
    } finally {
      await free.close();
    }
  });
});
