// GET /search, /groups/:id/search and /projects/:id/search, as GitLab's search API: scopes, the
// confidential issues the caller must never see, blob search with git grep, and GitLab's pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { parseBlobQuery } from '../../src/search/grep-blobs.js';

let kiln: TestKiln;
let alice: TestUser; // owner of everything in acme
let reporter: TestUser;
let guest: TestUser;
let stranger: TestUser;
let acme: any;
let sub: any;
let app: any;
let tools: any;
let lib: any;

async function commitFiles(project: any, files: Record<string, string>, branch = 'main') {
  const actions = Object.entries(files).map(([file_path, content]) => ({ action: 'create', file_path, content }));
  const answer = await kiln.api('POST', `/projects/${project.id}/repository/commits`, { token: alice.token, body: { branch, commit_message: 'files', actions } });
  if (answer.status !== 201) throw new Error(`commit failed: ${answer.status} ${JSON.stringify(answer.body)}`);
}

async function issue(project: any, author: TestUser, title: string, extra: Record<string, unknown> = {}) {
  const answer = await kiln.api('POST', `/projects/${project.id}/issues`, { token: author.token, body: { title, ...extra } });
  if (answer.status !== 201) throw new Error(`issue failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  reporter = await kiln.createUser('rita');
  guest = await kiln.createUser('gus');
  stranger = await kiln.createUser('stan');
  acme = await kiln.createGroup(alice, 'acme', { visibility: 'private' });
  sub = await kiln.createGroup(alice, 'tools', { parent_id: acme.id, visibility: 'private' });
  app = await kiln.createProject(alice, 'app', { namespace_id: acme.id, visibility: 'private' });
  tools = await kiln.createProject(alice, 'crash-tools', { namespace_id: sub.id, visibility: 'private' });
  lib = await kiln.createProject(stranger, 'crash-lib', { visibility: 'public' });
  await kiln.addMember(alice, 'groups', acme.id, reporter, ACCESS.reporter);
  await kiln.addMember(alice, 'groups', acme.id, guest, ACCESS.guest);
  await issue(app, alice, 'Crash on start');
  await issue(app, alice, 'Secret crash report', { confidential: true });
  await issue(app, guest, 'Guest crash (confidential, own)', { confidential: true });
  const closed = await issue(app, alice, 'Old crash');
  await kiln.api('PUT', `/projects/${app.id}/issues/${closed.iid}`, { token: alice.token, body: { state_event: 'close' } });
  await issue(tools, alice, 'Crash in tools');
  await issue(lib, stranger, 'Public crash');
  await kiln.api('POST', `/projects/${app.id}/milestones`, { token: alice.token, body: { title: 'Crash-free release', description: 'no crashes' } });
  await commitFiles(app, {
    'README.md': '# App\n\nThis app never crashes.\nReally.\n',
    'src/main.rb': 'line one\nline two\nline three\nraise Crash\nline five\nline six\nline seven\n',
    'docs/crash-guide.txt': 'How to read a report\n',
  });
  await commitFiles(tools, { 'tool.rb': 'def crash!\nend\n' });
});
afterAll(() => kiln.close());

const titles = (body: any[]) => body.map((item) => item.title).sort();

describe('GET /api/v4/search', () => {
  describe('as a signed-in user', () => {
    it('requires search and scope, in Grape words', async () => {
      expect((await kiln.api('GET', '/search', { token: alice.token, query: { scope: 'projects' } })).body).toEqual({ error: 'search is missing' });
      expect((await kiln.api('GET', '/search', { token: alice.token, query: { search: 'x' } })).body).toEqual({ error: 'scope is missing' });
      const bad = await kiln.api('GET', '/search', { token: alice.token, query: { search: 'x', scope: 'blobs' } });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: 'scope does not have a valid value' });
    });

    it('finds projects the caller can read, without X-Total (GitLab pages global search uncounted)', async () => {
      const asStranger = await kiln.api('GET', '/search', { token: stranger.token, query: { scope: 'projects', search: 'crash' } });
      expect(asStranger.status).toBe(200);
      expect(asStranger.body.map((project: any) => project.path_with_namespace)).toEqual(['stan/crash-lib']);
      expect(asStranger.headers['x-total']).toBeUndefined();
      expect(asStranger.headers['x-total-pages']).toBeUndefined();
      expect(asStranger.headers['x-page']).toBe('1');
      const asMember = await kiln.api('GET', '/search', { token: guest.token, query: { scope: 'projects', search: 'crash' } });
      expect(asMember.body.map((project: any) => project.path_with_namespace).sort()).toEqual(['acme/tools/crash-tools', 'stan/crash-lib']);
    });

    it('pages with x-next-page known from one row more, and rel="next" only while there is more', async () => {
      const first = await kiln.api('GET', '/search', { token: guest.token, query: { scope: 'projects', search: 'crash', per_page: 1 } });
      expect(first.body).toHaveLength(1);
      expect(first.headers['x-next-page']).toBe('2');
      expect(first.headers.link).toContain('rel="next"');
      const second = await kiln.api('GET', '/search', { token: guest.token, query: { scope: 'projects', search: 'crash', per_page: 1, page: 2 } });
      expect(second.body).toHaveLength(1);
      expect(second.headers['x-next-page']).toBe('');
      expect(second.headers.link).not.toContain('rel="next"');
      expect(second.body[0].id).not.toBe(first.body[0].id);
    });

    it('never shows a confidential issue to a caller the issue policy refuses', async () => {
      const asGuest = await kiln.api('GET', '/search', { token: guest.token, query: { scope: 'issues', search: 'crash' } });
      expect(titles(asGuest.body)).toEqual(['Crash in tools', 'Crash on start', 'Guest crash (confidential, own)', 'Old crash', 'Public crash']);
      const asReporter = await kiln.api('GET', '/search', { token: reporter.token, query: { scope: 'issues', search: 'crash' } });
      expect(titles(asReporter.body)).toContain('Secret crash report');
      const asStranger = await kiln.api('GET', '/search', { token: stranger.token, query: { scope: 'issues', search: 'secret' } });
      expect(asStranger.body).toEqual([]);
    });

    it('filters issues by state and confidentiality, finds #iid, and orders newest first', async () => {
      const opened = await kiln.api('GET', '/search', { token: alice.token, query: { scope: 'issues', search: 'crash', state: 'closed' } });
      expect(titles(opened.body)).toEqual(['Old crash']);
      const secret = await kiln.api('GET', '/search', { token: alice.token, query: { scope: 'issues', search: 'crash', confidential: true } });
      expect(titles(secret.body)).toEqual(['Guest crash (confidential, own)', 'Secret crash report']);
      const byIid = await kiln.api('GET', `/projects/${app.id}/search`, { token: alice.token, query: { scope: 'issues', search: '#1' } });
      expect(titles(byIid.body)).toEqual(['Crash on start']);
      const all = await kiln.api('GET', '/search', { token: alice.token, query: { scope: 'issues', search: 'crash', sort: 'asc' } });
      expect(all.body[0].title).toBe('Crash on start');
      expect(all.body[0]).toMatchObject({ iid: 1, project_id: app.id, confidential: false, web_url: 'http://kiln.test/acme/app/-/issues/1' });
    });

    it('finds users by name or username', async () => {
      const { body } = await kiln.api('GET', '/search', { token: stranger.token, query: { scope: 'users', search: 'rita' } });
      expect(body).toEqual([{ id: reporter.id, username: 'rita', name: 'User rita', state: 'active', avatar_url: expect.any(String), web_url: 'http://kiln.test/rita' }]);
    });

    it('finds milestones of readable projects only', async () => {
      expect((await kiln.api('GET', '/search', { token: guest.token, query: { scope: 'milestones', search: 'crash' } })).body.map((m: any) => m.title)).toEqual(['Crash-free release']);
      expect((await kiln.api('GET', '/search', { token: stranger.token, query: { scope: 'milestones', search: 'crash' } })).body).toEqual([]);
    });

    it('answers an empty page for scopes whose objects Kiln does not have', async () => {
      const { status, body } = await kiln.api('GET', '/search', { token: alice.token, query: { scope: 'snippet_titles', search: 'crash' } });
      expect([status, body]).toEqual([200, []]);
    });
  });

  describe('anonymously', () => {
    it('returns 401', async () => {
      expect((await kiln.api('GET', '/search', { query: { scope: 'projects', search: 'crash' } })).status).toBe(401);
    });
  });
});

describe('GET /api/v4/projects/:id/search', () => {
  describe('as a reporter', () => {
    it('finds blobs in the default branch with git grep: one result per file, two lines of context, counted as found', async () => {
      const { status, body, headers } = await kiln.api('GET', `/projects/${app.id}/search`, { token: reporter.token, query: { scope: 'blobs', search: 'CRASH' } });
      expect(status).toBe(200);
      expect(headers['x-total']).toBe('3');
      expect(body).toEqual([
        { basename: 'README', data: '# App\n\nThis app never crashes.\nReally.\n', path: 'README.md', filename: 'README.md', id: null, ref: 'main', startline: 1, project_id: app.id },
        { basename: 'docs/crash-guide', data: 'How to read a report\n', path: 'docs/crash-guide.txt', filename: 'docs/crash-guide.txt', id: null, ref: 'main', startline: 1, project_id: app.id },
        { basename: 'src/main', data: 'line two\nline three\nraise Crash\nline five\nline six\n', path: 'src/main.rb', filename: 'src/main.rb', id: null, ref: 'main', startline: 2, project_id: app.id },
      ]);
    });

    it('narrows blobs with filename:, path: and extension: and pages them', async () => {
      const ext = await kiln.api('GET', `/projects/${app.id}/search`, { token: reporter.token, query: { scope: 'blobs', search: 'crash extension:rb' } });
      expect(ext.body.map((blob: any) => blob.path)).toEqual(['src/main.rb']);
      const byName = await kiln.api('GET', `/projects/${app.id}/search`, { token: reporter.token, query: { scope: 'blobs', search: 'filename:*.md' } });
      expect(byName.body.map((blob: any) => blob.path)).toEqual(['README.md']);
      const paged = await kiln.api('GET', `/projects/${app.id}/search`, { token: reporter.token, query: { scope: 'blobs', search: 'crash', per_page: 2, page: 2 } });
      expect(paged.body.map((blob: any) => blob.path)).toEqual(['src/main.rb']);
      expect(paged.headers['x-total-pages']).toBe('2');
    });

    it('searches another ref with `ref`, and finds nothing in a ref that does not exist', async () => {
      await kiln.api('POST', `/projects/${app.id}/repository/branches`, { token: alice.token, body: { branch: 'feature', ref: 'main' } });
      await kiln.api('POST', `/projects/${app.id}/repository/commits`, { token: alice.token, body: { branch: 'feature', commit_message: 'more', actions: [{ action: 'create', file_path: 'new.txt', content: 'crash only here\n' }] } });
      const feature = await kiln.api('GET', `/projects/${app.id}/search`, { token: reporter.token, query: { scope: 'blobs', search: 'only here', ref: 'feature' } });
      expect(feature.body.map((blob: any) => [blob.path, blob.ref])).toEqual([['new.txt', 'feature']]);
      expect((await kiln.api('GET', `/projects/${app.id}/search`, { token: reporter.token, query: { scope: 'blobs', search: 'only here' } })).body).toEqual([]);
      expect((await kiln.api('GET', `/projects/${app.id}/search`, { token: reporter.token, query: { scope: 'blobs', search: 'crash', ref: '--output=/tmp/x' } })).body).toEqual([]);
    });

    it('counts project issues (X-Total), as ProjectSearchResults pages them', async () => {
      const { headers, body } = await kiln.api('GET', `/projects/${app.id}/search`, { token: reporter.token, query: { scope: 'issues', search: 'crash' } });
      expect(headers['x-total']).toBe(String(body.length));
      expect(titles(body)).toEqual(['Crash on start', 'Guest crash (confidential, own)', 'Old crash', 'Secret crash report']);
    });

    it('finds the members of the project, inherited ones included', async () => {
      const { body } = await kiln.api('GET', `/projects/${app.id}/search`, { token: reporter.token, query: { scope: 'users', search: 'gus' } });
      expect(body.map((user: any) => user.username)).toEqual(['gus']);
      expect((await kiln.api('GET', `/projects/${app.id}/search`, { token: reporter.token, query: { scope: 'users', search: 'stan' } })).body).toEqual([]);
    });

    it('answers at /projects/:id/-/search too, and by URL-encoded path', async () => {
      const { status, body } = await kiln.api('GET', '/projects/acme%2Fapp/-/search', { token: reporter.token, query: { scope: 'issues', search: '#1' } });
      expect(status).toBe(200);
      expect(titles(body)).toEqual(['Crash on start']);
    });
  });

  describe('as a guest of a private project', () => {
    it('finds no blobs (download_code needs Reporter) but the issues it may read', async () => {
      const blobs = await kiln.api('GET', `/projects/${app.id}/search`, { token: guest.token, query: { scope: 'blobs', search: 'crash' } });
      expect([blobs.status, blobs.body]).toEqual([200, []]);
      const issues = await kiln.api('GET', `/projects/${app.id}/search`, { token: guest.token, query: { scope: 'issues', search: 'crash' } });
      expect(titles(issues.body)).toEqual(['Crash on start', 'Guest crash (confidential, own)', 'Old crash']);
    });
  });

  describe('as a user who cannot read the project', () => {
    it('returns 404 Project Not Found', async () => {
      const { status, body } = await kiln.api('GET', `/projects/${app.id}/search`, { token: stranger.token, query: { scope: 'issues', search: 'crash' } });
      expect(status).toBe(404);
      expect(body).toEqual({ message: '404 Project Not Found' });
    });
  });
});

describe('GET /api/v4/groups/:id/search', () => {
  describe('as a reporter of the group', () => {
    it('searches the group and its subgroups', async () => {
      const projects = await kiln.api('GET', `/groups/${acme.id}/search`, { token: reporter.token, query: { scope: 'projects', search: 'crash' } });
      expect(projects.body.map((project: any) => project.path_with_namespace)).toEqual(['acme/tools/crash-tools']);
      const issues = await kiln.api('GET', `/groups/${sub.id}/search`, { token: reporter.token, query: { scope: 'issues', search: 'crash' } });
      expect(titles(issues.body)).toEqual(['Crash in tools']);
    });

    it('greps blobs of every project it may read, each with its project_id', async () => {
      const { body, headers } = await kiln.api('GET', `/groups/${acme.id}/search`, { token: reporter.token, query: { scope: 'blobs', search: 'crash' } });
      expect(body.map((blob: any) => [blob.project_id, blob.path]).sort()).toEqual([[app.id, 'README.md'], [app.id, 'docs/crash-guide.txt'], [app.id, 'src/main.rb'], [tools.id, 'tool.rb']].sort());
      expect(headers['x-total']).toBe('4');
    });

    it('finds group members only', async () => {
      const { body } = await kiln.api('GET', `/groups/${sub.id}/search`, { token: reporter.token, query: { scope: 'users', search: 'rita' } });
      expect(body.map((user: any) => user.username)).toEqual(['rita']);
      expect((await kiln.api('GET', `/groups/${sub.id}/search`, { token: reporter.token, query: { scope: 'users', search: 'stan' } })).body).toEqual([]);
    });
  });

  describe('as a guest of the group', () => {
    it('finds no blobs in private projects', async () => {
      expect((await kiln.api('GET', `/groups/${acme.id}/search`, { token: guest.token, query: { scope: 'blobs', search: 'crash' } })).body).toEqual([]);
    });
  });

  describe('as a user who cannot read the group', () => {
    it('returns 404 Group Not Found', async () => {
      const { status, body } = await kiln.api('GET', `/groups/${acme.id}/search`, { token: stranger.token, query: { scope: 'projects', search: 'crash' } });
      expect(status).toBe(404);
      expect(body).toEqual({ message: '404 Group Not Found' });
    });
  });
});

describe('parseBlobQuery', () => {
  it('separates the term from the filename:, path: and extension: filters', () => {
    const query = parseBlobQuery('raise Crash filename:*.rb path:src extension:rb');
    expect(query.term).toBe('raise Crash');
    expect(query.filters.map((filter) => filter.kind)).toEqual(['filename', 'path', 'extension']);
    const [filename, path, extension] = query.filters;
    expect(['app/models/User.RB', 'lib/a.rb.txt', 'rb'].map(filename.matches)).toEqual([true, false, false]);
    expect(['src/x.rb', 'lib/SRC/y', 'lib/y'].map(path.matches)).toEqual([true, true, false]);
    expect(['a.rb', 'a.erb', 'rb'].map(extension.matches)).toEqual([true, false, false]);
  });

  it('matches a filter that a backtracking RegExp takes seconds over in microseconds', () => {
    const query = parseBlobQuery(`filename:${'a*'.repeat(30)}b`);
    const started = performance.now();
    expect(query.filters[0].matches(`${'a'.repeat(4000)}c`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(50);
  });
});
