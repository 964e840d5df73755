// GitLab's ETags on API reads (Rack::ETag and Rack::ConditionalGet): a 200 to a GET carries a weak
// ETag of its body, and If-None-Match with it gets 304 without a body. The answer is computed, and
// every permission checked, before the ETag is compared: a caller who lost access gets 404, never 304.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { etagOf } from '../../src/platform/http/etag.js';

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

// A page of kept Project entities is identified by their keys (ids and row versions) and the
// upstreams shown with them, and its ETag digests those rather than the page's JSON (http/etag.ts):
// the same page must keep its ETag whether its entities were kept or read now, and any change to
// what the page shows must change it.
describe('GET /api/v4/projects?membership=true with If-None-Match', () => {
  const page = (user: TestUser, etag?: string) =>
    kiln.request('GET', '/api/v4/projects?membership=true&per_page=5', { token: user.token, headers: etag ? { 'if-none-match': etag } : {} });

  it('keeps one ETag for one page, answers 304 to it, and a new one after a project on the page changes', async () => {
    const lister = await kiln.createUser('etag-lister');
    const mine: Array<{ id: number }> = [];
    for (const name of ['etag-a', 'etag-b']) mine.push(await kiln.createProject(lister, name));
    // First read (entities serialised now) and second (kept): the same page, the same ETag.
    const first = await page(lister);
    const second = await page(lister);
    expect(first.statusCode).toBe(200);
    expect(JSON.parse(second.body).map((p: any) => p.name)).toEqual(['etag-b', 'etag-a']);
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe(first.headers.etag);
    // Named by the entities' keys, not a digest of the body.
    expect(second.headers.etag).not.toBe(etagOf(second.body));
    const unchanged = await page(lister, first.headers.etag as string);
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe('');

    // A change to a project on the page, or to its namespace, moves a version the ETag names.
    expect((await kiln.api('PUT', `/projects/${mine[0].id}`, { token: lister.token, body: { description: 'changed' } })).status).toBe(200);
    const changed = await page(lister, first.headers.etag as string);
    expect(changed.statusCode).toBe(200);
    expect(JSON.parse(changed.body).find((p: any) => p.id === mine[0].id).description).toBe('changed');
    expect(changed.headers.etag).not.toBe(first.headers.etag);
    expect((await page(lister, changed.headers.etag as string)).statusCode).toBe(304);

    // Another project on the page: another page, another ETag.
    await kiln.createProject(lister, 'etag-c');
    const grown = await page(lister, changed.headers.etag as string);
    expect(grown.statusCode).toBe(200);
    expect(JSON.parse(grown.body)).toHaveLength(3);
    expect(grown.headers.etag).not.toBe(changed.headers.etag);
  });

  it('gives two callers with different pages different ETags', async () => {
    const one = await kiln.createUser('etag-one');
    const two = await kiln.createUser('etag-two');
    await kiln.createProject(one, 'etag-one-project');
    await kiln.createProject(two, 'etag-two-project');
    const [a, b] = [await page(one), await page(two)];
    expect(a.body).not.toBe(b.body);
    expect(a.headers.etag).not.toBe(b.headers.etag);
    // Each caller's ETag is worthless for the other's page.
    expect((await page(two, a.headers.etag as string)).statusCode).toBe(200);
  });
});
