// Offset pagination with GitLab's headers (GitLab's REST API documentation, docs/decisions.md "X-Total at scale").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';

let kiln: TestKiln;
let dora: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  dora = await kiln.createUser('dora');
  for (let i = 0; i < 25; i += 1) await kiln.createProject(dora, `p${i}`);
});
afterAll(() => kiln.close());

const list = (query: string, token = dora.token) => kiln.api('GET', `/projects?membership=true${query}`, { token });

describe('GET /api/v4/projects (pagination)', () => {
  it('defaults to 20 per page with every header and no prev link on page 1', async () => {
    const { status, body, headers } = await list('');
    expect(status).toBe(200);
    expect(body).toHaveLength(20);
    expect(headers).toMatchObject({ 'x-page': '1', 'x-per-page': '20', 'x-next-page': '2', 'x-prev-page': '', 'x-total': '25', 'x-total-pages': '2' });
    expect(headers.link).toBe(
      '<http://kiln.test/api/v4/projects?membership=true&page=2&per_page=20>; rel="next", ' +
        '<http://kiln.test/api/v4/projects?membership=true&page=1&per_page=20>; rel="first", ' +
        '<http://kiln.test/api/v4/projects?membership=true&page=2&per_page=20>; rel="last"',
    );
  });

  it('on the last page has an empty X-Next-Page and no next link', async () => {
    const { body, headers } = await list('&page=2');
    expect(body).toHaveLength(5);
    expect(headers['x-next-page']).toBe('');
    expect(headers['x-prev-page']).toBe('1');
    expect(headers.link).not.toContain('rel="next"');
    expect(headers.link).toContain('rel="prev"');
  });

  it('clamps per_page above 100 to 100', async () => {
    const { body, headers } = await list('&per_page=1000');
    expect(body).toHaveLength(25);
    expect(headers['x-per-page']).toBe('100');
    expect(headers.link).toContain('per_page=100');
  });

  it('treats a negative per_page as the default 20', async () => {
    const { headers } = await list('&per_page=-5');
    expect(headers['x-per-page']).toBe('20');
  });

  it('treats page 0 as page 1', async () => {
    const { headers } = await list('&page=0&per_page=10');
    expect(headers['x-page']).toBe('1');
    expect(headers['x-next-page']).toBe('2');
  });

  it('answers 400 {"error":"per_page has a value not allowed"} for per_page=0', async () => {
    const { status, body } = await list('&per_page=0');
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'per_page has a value not allowed' });
  });

  it('answers 400 {"error":"page is invalid"} for a non-numeric page', async () => {
    const { status, body } = await list('&page=abc');
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'page is invalid' });
  });

  it.each([
    ['page=999999999999999999', { error: 'page does not have a valid value' }],
    ['page=99999999999999999999999999', { error: 'page does not have a valid value' }],
    ['page=9007199254740993', { error: 'page does not have a valid value' }],
    ['page=1e5', { error: 'page is invalid' }],
    ['per_page=1.5', { error: 'per_page is invalid' }],
    ['per_page=abc', { error: 'per_page is invalid' }],
  ])('answers 400 in Grape\'s shape, never 500, for %s', async (query, error) => {
    const { status, body } = await list(`&${query}`);
    expect(status).toBe(400);
    expect(body).toEqual(error);
  });

  it.each([['per_page=999999999999999999999', '100'], ['per_page=-99999999999999999999', '20'], ['page=-99999999999999999999', '20']])(
    'clamps %s as GitLab does (X-Per-Page %s)',
    async (query, perPage) => {
      const { status, headers } = await list(`&${query}`);
      expect(status).toBe(200);
      expect(headers['x-per-page']).toBe(perPage);
    },
  );

  it('serves the last page that can be asked for (an empty one)', async () => {
    const { status, body, headers } = await list('&page=90071992547409&per_page=100');
    expect(status).toBe(200);
    expect(body).toEqual([]);
    expect(headers['x-page']).toBe('90071992547409');
  });

  it('beyond the last page answers an empty list with empty next/prev and only first/last links', async () => {
    const { status, body, headers } = await list('&page=9&per_page=10');
    expect(status).toBe(200);
    expect(body).toEqual([]);
    expect(headers['x-next-page']).toBe('');
    expect(headers['x-prev-page']).toBe('');
    expect(headers['x-total']).toBe('25');
    expect(headers.link).toBe(
      '<http://kiln.test/api/v4/projects?membership=true&page=1&per_page=10>; rel="first", ' +
        '<http://kiln.test/api/v4/projects?membership=true&page=3&per_page=10>; rel="last"',
    );
  });

  it('an empty list says X-Total 0 and X-Total-Pages 1', async () => {
    const empty = await kiln.createUser('empty');
    const { body, headers } = await list('', empty.token);
    expect(body).toEqual([]);
    expect(headers['x-total']).toBe('0');
    expect(headers['x-total-pages']).toBe('1');
  });

  it('keeps the caller\'s other query parameters in Link, keys sorted', async () => {
    const { headers } = await kiln.api('GET', '/projects?search=p1&membership=true&per_page=2', { token: dora.token });
    expect(headers.link).toContain('<http://kiln.test/api/v4/projects?membership=true&page=2&per_page=2&search=p1>; rel="next"');
  });

  it('Link URLs contain no commas and follow the <url>; rel="x" form gitbeaker parses', async () => {
    const { headers } = await list('&per_page=5&page=2');
    const entries = (headers.link as string).split(', ');
    expect(entries).toHaveLength(4);
    for (const entry of entries) expect(entry).toMatch(/^<http:\/\/kiln\.test\/[^,>]+>; rel="(prev|next|first|last)"$/);
  });
});

describe('GET /api/v4/events (pagination)', () => {
  it('answers 400, never 500, for page=999999999999999999', async () => {
    const { status, body } = await kiln.api('GET', '/events?page=999999999999999999', { token: dora.token });
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'page does not have a valid value' });
  });
});

describe('GET /api/v4/projects above 10,000 rows', () => {
  it('omits X-Total, X-Total-Pages and rel="last" but still links to the next page', async () => {
    const owner = await kiln.createUser('bulk');
    const namespace = await kiln.deps.db.selectFrom('namespaces').select('id').where('owner_id', '=', owner.id).executeTakeFirstOrThrow();
    await sql`
      with recursive n(i) as (select 1 union all select i + 1 from n where i < 10001)
      insert into projects (namespace_id, name, path, full_path, full_path_lower, description, visibility, default_branch, created_at, updated_at, last_activity_at)
      select ${namespace.id}, 'b' || i, 'b' || i, 'bulk/b' || i, 'bulk/b' || i, '', 'private', 'main', 0, 0, 0 from n`.execute(kiln.deps.db);
    const { status, body, headers } = await kiln.api('GET', '/projects?membership=true&per_page=100&page=2', { token: owner.token });
    expect(status).toBe(200);
    expect(body).toHaveLength(100);
    expect(headers['x-total']).toBeUndefined();
    expect(headers['x-total-pages']).toBeUndefined();
    expect(headers['x-next-page']).toBe('3');
    expect(headers.link).toContain('rel="next"');
    expect(headers.link).not.toContain('rel="last"');
  });
});
