// Explore (issue 36): /explore/projects (All, Most starred, Trending) and /explore/groups list what the
// visitor may see — public for anonymous visitors, internal too once signed in, private only to
// members — filtered by name, sorted and paged; names and descriptions are escaped; anonymous
// visitors are asked to sign in once the administrator restricts the Public level.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { multipart, TINY_PNG } from '../helpers/multipart.js';
import { countStatements, type StatementCounter } from '../helpers/statement-counter.js';

let kiln: TestKiln;
let owner: TestUser;
let other: TestUser;
const XSS = '<img src=x onerror=alert(1)>';
let statements: StatementCounter;

beforeAll(async () => {
  statements = countStatements();
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  other = await kiln.createUser('other');
  const open = await kiln.api('POST', '/groups', { token: owner.token, body: { name: `open ${XSS}`, path: 'open', visibility: 'public', description: `About ${XSS}` } });
  expect(open.status).toBe(201);
  await kiln.createGroup(owner, 'inside', { visibility: 'internal' });
  await kiln.createGroup(owner, 'secret', { visibility: 'private' });
  const pub = await kiln.api('POST', '/projects', { token: owner.token, body: { name: 'pub-app', namespace_id: open.body.id, visibility: 'public', description: `Shop ${XSS}` } });
  expect(pub.status).toBe(201);
  const internal = await kiln.createProject(owner, 'int-app', { visibility: 'internal' });
  await kiln.createProject(owner, 'priv-app', { visibility: 'private' });
  for (const user of [owner, other]) expect((await kiln.api('POST', `/projects/${internal.id}/star`, { token: user.token })).status).toBe(201);
  for (const title of ['one', 'two']) await kiln.api('POST', `/projects/${pub.body.id}/issues`, { token: owner.token, body: { title } });
});
afterAll(async () => {
  await kiln.close();
  statements.restore();
});

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

function listed(body: string, kind: 'project' | 'group'): string[] {
  return [...body.matchAll(new RegExp(`data-${kind}="([^"]+)"`, 'g'))].map((match) => match[1]);
}

describe('GET /explore/projects', () => {
  it('as an anonymous visitor: public projects only, text escaped, linked from the top bar and the sign-in page', async () => {
    const page = await kiln.request('GET', '/explore/projects');
    expect(page.statusCode).toBe(200);
    expect(listed(page.body, 'project')).toEqual(['open/pub-app']);
    expect(page.body).toContain('Shop &lt;img src=x onerror=alert(1)&gt;');
    expect(page.body).not.toContain('<img src=x');
    expect(page.body).toContain('<a href="/explore">Explore</a>');
    expect(page.body).toContain('<form class="top-search" method="get" action="/explore/projects" role="search">');
    expect(page.body).toContain('id="top-search" type="search" name="name"');
    expect((await kiln.request('GET', '/users/sign_in')).body).toContain('href="/explore"');
    expect((await kiln.request('GET', '/explore')).headers.location).toBe('/explore/projects');
  });

  it('as a signed-in user: internal projects too, and private ones only to their members', async () => {
    expect(listed((await (await signedIn(other)).get('/explore/projects')).body, 'project').sort()).toEqual(['open/pub-app', 'owner/int-app']);
    expect(listed((await (await signedIn(owner)).get('/explore/projects')).body, 'project').sort()).toEqual(['open/pub-app', 'owner/int-app', 'owner/priv-app']);
  });

  it('filters by name and sorts (GitLab’s sort names), keeping both in the page links', async () => {
    const web = await signedIn(owner);
    expect(listed((await web.get('/explore/projects?name=int')).body, 'project')).toEqual(['owner/int-app']);
    expect(listed((await web.get('/explore/projects?sort=name_desc')).body, 'project')).toEqual(['open/pub-app', 'owner/priv-app', 'owner/int-app']);
    expect(listed((await web.get('/explore/projects?sort=bogus')).body, 'project')).toHaveLength(3);
    const none = await web.get('/explore/projects?name=nothing-like-this');
    expect(none.body).toContain('No projects you can see match “nothing-like-this”.');
  });

  it('Most starred puts the most starred first; Trending ranks the last 30 days’ activity', async () => {
    const web = await signedIn(owner);
    expect(listed((await web.get('/explore/projects/starred')).body, 'project')[0]).toBe('owner/int-app');
    const trending = listed((await web.get('/explore/projects/trending')).body, 'project');
    expect(trending[0]).toBe('open/pub-app');
  });

  it('pages by 20, the next page’s link keeping the filter', async () => {
    for (let n = 0; n < 21; n += 1) await kiln.createProject(other, `bulk-${String(n).padStart(2, '0')}`, { visibility: 'public' });
    const first = await kiln.request('GET', '/explore/projects?name=bulk&sort=name_asc');
    expect(listed(first.body, 'project')).toHaveLength(20);
    expect(first.body).toContain('href="/explore/projects?name=bulk&amp;sort=name_asc&amp;page=2" rel="next"');
    const second = await kiln.request('GET', '/explore/projects?name=bulk&sort=name_asc&page=2');
    expect(listed(second.body, 'project')).toEqual(['other/bulk-20']);
    statements.count = 0;
    await kiln.request('GET', '/explore/projects?name=bulk&sort=name_asc');
    const twenty = statements.count;
    statements.count = 0;
    await kiln.request('GET', '/explore/projects?name=bulk&sort=name_asc&page=2');
    expect(statements.count).toBe(twenty);
  });
});

describe('GET /explore/groups', () => {
  it('lists public groups to anonymous visitors, internal ones and the user’s own once signed in, escaped', async () => {
    const anonymous = await kiln.request('GET', '/explore/groups');
    expect(listed(anonymous.body, 'group')).toEqual(['open']);
    expect(anonymous.body).toContain('open &lt;img src=x onerror=alert(1)&gt;');
    expect(anonymous.body).toContain('About &lt;img');
    expect(anonymous.body).not.toContain('<img src=x');
    expect(listed((await (await signedIn(other)).get('/explore/groups')).body, 'group').sort()).toEqual(['inside', 'open']);
    expect(listed((await (await signedIn(owner)).get('/explore/groups?sort=name_desc')).body, 'group')).toEqual(['secret', 'open', 'inside']);
    expect(anonymous.body).toContain('<span class="avatar" aria-hidden="true">O</span>');
    const inside = (await kiln.api('GET', '/groups/inside', { token: owner.token })).body;
    const upload = await multipart({ avatar: { filename: 'logo.png', data: TINY_PNG } });
    const put = await kiln.app.inject({ method: 'PUT', url: `/api/v4/groups/${inside.id}`, headers: { 'private-token': owner.token, 'content-type': upload.contentType }, payload: upload.payload });
    expect(put.statusCode).toBe(200);
    expect((await (await signedIn(other)).get('/explore/groups')).body).toContain(`<img class="avatar" src="/uploads/-/system/group/avatar/${inside.id}/logo.png" alt="" width="32" height="32">`);
    const none = await kiln.request('GET', '/explore/groups?name=zzz');
    expect(none.body).toContain('No groups you can see match “zzz”.');
  });

  it('explains the next step when there is nothing to see', async () => {
    const empty = await testKiln();
    try {
      const groups = await empty.request('GET', '/explore/groups');
      expect(groups.body).toContain('There are no public groups here yet.');
      expect(groups.body).toContain('href="/users/sign_in?return_to=%2Fexplore%2Fgroups"');
      const web = new WebSession(empty);
      await web.signIn(empty.root.username, empty.root.password);
      expect((await web.get('/explore/projects')).body).toContain('href="/projects/new">Create a project</a>');
      expect((await web.get('/')).body).toContain('<a href="/explore/projects">explore the projects</a>');
    } finally {
      await empty.close();
    }
  });
});

describe('GET /explore/projects/topics', () => {
  it('lists topics (most public projects first), filters by name, and shows a topic with the projects the reader may see', async () => {
    await kiln.api('PUT', '/projects/open%2Fpub-app', { token: owner.token, body: { topics: ['shop', 'web'] } });
    await kiln.api('PUT', `/projects/${owner.username}%2Fpriv-app`, { token: owner.token, body: { topics: ['shop'] } });
    const shop = (await kiln.api('GET', '/topics?search=shop')).body[0];
    await kiln.api('PUT', `/topics/${shop.id}`, { token: kiln.root.token, body: { title: 'Shops', description: `Selling **things** ${XSS}` } });
    const list = await kiln.request('GET', '/explore/projects/topics');
    expect(list.statusCode).toBe(200);
    expect([...list.body.matchAll(/data-topic="([^"]+)"/g)].map((match) => match[1])).toEqual(['shop', 'web']);
    expect(list.body).toContain('<a href="/explore/projects/topics/shop">Shops</a>');
    expect(list.body).toContain('2 projects');
    expect((await kiln.request('GET', '/explore/projects')).body).toContain('href="/explore/projects/topics">Topics</a>');
    const filtered = await kiln.request('GET', '/explore/projects/topics?name=we');
    expect([...filtered.body.matchAll(/data-topic="([^"]+)"/g)].map((match) => match[1])).toEqual(['web']);
    const anonymous = await kiln.request('GET', '/explore/projects/topics/Shop');
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.body).toContain('<strong>things</strong>');
    expect(anonymous.body).not.toContain('<img src=x');
    expect(listed(anonymous.body, 'project')).toEqual(['open/pub-app']);
    const web = await signedIn(owner);
    expect(listed((await web.get('/explore/projects/topics/shop')).body, 'project').sort()).toEqual(['open/pub-app', `${owner.username}/priv-app`]);
    expect((await web.get('/explore/projects/topics/nothing-here')).statusCode).toBe(404);
  });
});

describe('with the Public level restricted', () => {
  it('asks anonymous visitors to sign in, and still lists for signed-in users', async () => {
    const restricted = await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { restricted_visibility_levels: ['public'] } });
    expect(restricted.status).toBe(200);
    try {
      for (const path of ['/explore/projects', '/explore/projects/trending', '/explore/groups']) {
        const answer = await kiln.request('GET', path);
        expect(answer.statusCode).toBe(302);
        expect(answer.headers.location).toBe(`/users/sign_in?return_to=${encodeURIComponent(path)}`);
      }
      expect((await (await signedIn(other)).get('/explore/groups')).statusCode).toBe(200);
    } finally {
      await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { restricted_visibility_levels: [] } });
    }
  });
});

describe('GET /explore/projects/trending a month later', () => {
  it('forgets activity older than 30 days and says so', async () => {
    kiln.clock.advance(31 * 24 * 60 * 60 * 1000);
    const later = await kiln.request('GET', '/explore/projects/trending');
    expect(listed(later.body, 'project')).toEqual([]);
    expect(later.body).toContain('No project you can see had activity in the last 30 days.');
  });
});
