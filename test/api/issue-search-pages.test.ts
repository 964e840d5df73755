// Pages of an issue search (issue 40, growth). The page and the count of its matches are read in one pass
// (issues-queries.ts, `searchedPageQuery`); what a client sees is the ordinary listing's: GitLab's headers
// with X-Total counted up to 10,000 (a search is counted as any listing is, lib/api/issues.rb `paginate`),
// the order it asked for, an empty page past the last one with the total, and beyond 10,000 matches the
// newest matches without a total.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery } from 'kysely';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { countStatements, type StatementCounter } from '../helpers/statement-counter.js';
import { testDialect } from '../helpers/database.js';

let kiln: TestKiln;
let owner: TestUser;
let group: any;
let project: any;
let crowded: any;
let statements: StatementCounter;

const MATCHES = 25;
const MANY = 10_010;

async function page(path: string, query: Record<string, string>) {
  const answer = await kiln.api('GET', path, { token: owner.token, query });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return { titles: answer.body.map((issue: any) => issue.title), headers: answer.headers };
}

beforeAll(async () => {
  // Before the app starts.
  statements = countStatements();
  kiln = await testKiln();
  owner = await kiln.createUser('searcher');
  group = await kiln.createGroup(owner, 'searched-group');
  project = await kiln.createProject(owner, 'searched', { namespace_id: group.id });
  for (let n = 0; n < MATCHES; n += 1) {
    await kiln.apiAs(owner, 'POST', `/projects/${project.id}/issues`, { title: `Needle ${String(n).padStart(2, '0')}`, description: n % 2 ? 'odd' : 'even' });
    kiln.clock.advance(1000);
    if (n % 5 === 0) await kiln.apiAs(owner, 'POST', `/projects/${project.id}/issues`, { title: `Haystack ${n}` });
  }
  // More matches than are counted, straight into the table (the API would take minutes), each newer than
  // the one before, so that the newest are the last rows stored.
  crowded = await kiln.createProject(owner, 'crowded');
  const now = kiln.clock.now();
  for (let start = 0; start < MANY; start += 500) {
    const rows = [];
    for (let n = start; n < Math.min(MANY, start + 500); n += 1) {
      rows.push({ project_id: crowded.id, iid: n + 1, title: `Needle ${n}`, description: null, state: 'opened' as const, author_id: owner.id, created_at: now + n, updated_at: now + n });
    }
    await kiln.deps.db.insertInto('issues').values(rows).execute();
  }
}, 180_000);

afterAll(async () => {
  statements.restore();
  await kiln?.close();
});

describe('a searched listing, page by page', () => {
  it('counts its matches and pages them newest first', async () => {
    const first = await page(`/projects/${project.id}/issues`, { search: 'needle', per_page: '10' });
    expect(first.titles).toEqual(Array.from({ length: 10 }, (_, i) => `Needle ${String(MATCHES - 1 - i).padStart(2, '0')}`));
    expect(first.headers).toMatchObject({ 'x-total': String(MATCHES), 'x-total-pages': '3', 'x-next-page': '2', 'x-page': '1' });
    expect(first.headers.link).toContain('rel="last"');
    const last = await page(`/projects/${project.id}/issues`, { search: 'needle', per_page: '10', page: '3' });
    expect(last.titles).toEqual(['Needle 04', 'Needle 03', 'Needle 02', 'Needle 01', 'Needle 00']);
    expect(last.headers).toMatchObject({ 'x-total': String(MATCHES), 'x-next-page': '' });
    const beyond = await page(`/projects/${project.id}/issues`, { search: 'needle', per_page: '10', page: '4' });
    expect(beyond.titles).toEqual([]);
    expect(beyond.headers['x-total']).toBe(String(MATCHES));
  });

  it('keeps the order asked for and the other filters', async () => {
    const byTitle = await page(`/projects/${project.id}/issues`, { search: 'needle', order_by: 'title', sort: 'asc', per_page: '3', page: '2' });
    expect(byTitle.titles).toEqual(['Needle 03', 'Needle 04', 'Needle 05']);
    expect(byTitle.headers['x-total']).toBe(String(MATCHES));
    const odd = await page(`/projects/${project.id}/issues`, { search: 'odd', per_page: '5' });
    expect(odd.titles).toEqual(['Needle 23', 'Needle 21', 'Needle 19', 'Needle 17', 'Needle 15']);
    expect(odd.headers['x-total']).toBe('12');
    const inTitles = await page(`/projects/${project.id}/issues`, { search: 'odd', in: 'title', per_page: '5' });
    expect(inTitles.titles).toEqual([]);
    expect(inTitles.headers['x-total']).toBe('0');
  });

  it('counts across a group and across every project the same way', async () => {
    const inGroup = await page(`/groups/${group.id}/issues`, { search: 'needle', per_page: '2' });
    expect(inGroup.titles).toEqual(['Needle 24', 'Needle 23']);
    expect(inGroup.headers['x-total']).toBe(String(MATCHES));
    const everywhere = await page('/issues', { scope: 'all', search: 'haystack', per_page: '2' });
    expect(everywhere.titles).toEqual(['Haystack 20', 'Haystack 15']);
    expect(everywhere.headers).toMatchObject({ 'x-total': '5', 'x-total-pages': '3' });
  });

  it('beyond 10,000 matches shows the newest of them all, without a total', async () => {
    const first = await page(`/projects/${crowded.id}/issues`, { search: 'needle' });
    expect(first.titles).toEqual(Array.from({ length: 20 }, (_, i) => `Needle ${MANY - 1 - i}`));
    expect(first.headers['x-total']).toBeUndefined();
    expect(first.headers['x-total-pages']).toBeUndefined();
    expect(first.headers['x-next-page']).toBe('2');
    expect(first.headers.link).not.toContain('rel="last"');
    const oldest = await page(`/projects/${crowded.id}/issues`, { search: 'needle', sort: 'asc', per_page: '3' });
    expect(oldest.titles).toEqual(['Needle 0', 'Needle 1', 'Needle 2']);
    // Past the first 10,001 matches, where no count reaches.
    const deep = await page(`/projects/${crowded.id}/issues`, { search: 'needle', per_page: '1', page: '10005' });
    expect(deep.titles).toEqual(['Needle 5']);
    expect(deep.headers['x-total']).toBeUndefined();
  });
});

describe.runIf(testDialect() === 'sqlite')('on SQLite', () => {
  it('reads the candidates the trigram index names, each by its id, instead of walking the listing in order', async () => {
    statements.log = [];
    await page(`/projects/${project.id}/issues`, { search: 'odd', per_page: '5' });
    const listing = statements.log.find((text) => text.includes('json_each') && text.includes('kiln_total'));
    expect(listing, statements.log.join('\n---\n')).toBeDefined();
    statements.log = undefined;
    const plan = await kiln.deps.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${listing}`, Array.from({ length: (listing!.match(/\?/g) ?? []).length }, () => null)));
    const steps = plan.rows.map((row) => row.detail);
    expect(steps.findIndex((step) => /^SCAN c\b/.test(step)), steps.join('\n')).toBeGreaterThanOrEqual(0);
    expect(steps.findIndex((step) => /^SEARCH i USING INTEGER PRIMARY KEY/.test(step)), steps.join('\n')).toBeGreaterThan(steps.findIndex((step) => /^SCAN c\b/.test(step)));
    expect(steps.some((step) => /issues_project_created/.test(step)), steps.join('\n')).toBe(false);
  });
});
