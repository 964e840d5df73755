// GitLab's ETags on API reads (Rack::ETag and Rack::ConditionalGet): a 200 to a GET carries a weak
// ETag of its body, and If-None-Match with it gets 304 without a body. The answer is computed, and
// every permission checked, before the ETag is compared: a caller who lost access gets 404, never 304.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let owner: TestUser;
let reader: TestUser;
let project: { id: number };

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('etag-owner');
  reader = await kiln.createUser('etag-reader');
  project = await kiln.createProject(owner, 'etag-project', { visibility: 'private' });
  await kiln.addMember(owner, 'projects', project.id, reader, ACCESS.reporter);
});
afterAll(async () => {
  await kiln.close();
});

describe('GET /api/v4/projects/:id with If-None-Match', () => {
  it('answers 304 without a body when the ETag is the current one, and 200 with a new ETag after a change', async () => {
    const first = await kiln.api('GET', `/projects/${project.id}`, { token: reader.token });
    expect(first.status).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[0-9a-f]{32}"$/);
    const again = await kiln.request('GET', `/api/v4/projects/${project.id}`, { token: reader.token, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    // A list of tags, the strong form, and * match too (RFC 9110 §13.1.2).
    for (const header of [`W/"other", ${etag}`, etag.slice(2), '*']) {
      expect((await kiln.request('GET', `/api/v4/projects/${project.id}`, { token: reader.token, headers: { 'if-none-match': header } })).statusCode).toBe(304);
    }
    await kiln.apiAs(owner, 'PUT', `/projects/${project.id}`, { description: 'changed' });
    const changed = await kiln.request('GET', `/api/v4/projects/${project.id}`, { token: reader.token, headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(JSON.parse(changed.body).description).toBe('changed');
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('answers a caller who lost access 404 whatever ETag they send', async () => {
    const seen = await kiln.api('GET', `/projects/${project.id}`, { token: reader.token });
    const members = await kiln.api('GET', `/projects/${project.id}/members`, { token: owner.token });
    expect(members.status).toBe(200);
    expect((await kiln.api('DELETE', `/projects/${project.id}/members/${reader.id}`, { token: owner.token })).status).toBe(204);
    const after = await kiln.request('GET', `/api/v4/projects/${project.id}`, { token: reader.token, headers: { 'if-none-match': seen.headers.etag as string } });
    expect(after.statusCode).toBe(404);
  });

  it('gives no ETag to writes and errors', async () => {
    expect((await kiln.api('GET', '/projects/999999', { token: reader.token })).headers.etag).toBeUndefined();
    expect((await kiln.api('PUT', `/projects/${project.id}`, { token: owner.token, body: { description: 'again' } })).headers.etag).toBeUndefined();
  });
});
