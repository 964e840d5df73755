// Project search's `notes` (comments on issues the caller may read, confidential ones only for those
// the issue policy lets read them) and `commits` (git log --grep over the default branch or `ref`,
// GitLab's CommitDetail entity), as lib/api/search.rb serves them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let alice: TestUser;
let reporter: TestUser;
let guest: TestUser;
let stranger: TestUser;
let app: any;
let lib: any;
let firstCommit: string;

async function ok(method: string, path: string, token: string, body: Record<string, unknown>) {
  const answer = await kiln.api(method, path, { token, body });
  if (answer.status !== 201) throw new Error(`${path} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

async function comment(project: any, iid: number, author: TestUser, body: string) {
  return ok('POST', `/projects/${project.id}/issues/${iid}/notes`, author.token, { body });
}

async function commit(project: any, message: string, file: string, branch = 'main') {
  return ok('POST', `/projects/${project.id}/repository/commits`, alice.token, { branch, commit_message: message, actions: [{ action: 'create', file_path: file, content: `${file}\n` }] });
}

const search = (project: any, user: TestUser, query: Record<string, string | number>) => kiln.api('GET', `/projects/${project.id}/search`, { token: user.token, query });

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  reporter = await kiln.createUser('rita');
  guest = await kiln.createUser('gus');
  stranger = await kiln.createUser('stan');
  const acme = await kiln.createGroup(alice, 'acme', { visibility: 'private' });
  app = await kiln.createProject(alice, 'app', { namespace_id: acme.id, visibility: 'private' });
  lib = await kiln.createProject(stranger, 'lib', { visibility: 'public' });
  await kiln.addMember(alice, 'groups', acme.id, reporter, ACCESS.reporter);
  await kiln.addMember(alice, 'groups', acme.id, guest, ACCESS.guest);
  const open = await ok('POST', `/projects/${app.id}/issues`, alice.token, { title: 'Open issue' });
  const secret = await ok('POST', `/projects/${app.id}/issues`, alice.token, { title: 'Secret issue', confidential: true });
  const own = await ok('POST', `/projects/${app.id}/issues`, guest.token, { title: 'Guest secret', confidential: true });
  await comment(app, open.iid, alice, 'The Flux capacitor is broken');
  await comment(app, secret.iid, alice, 'flux leak in the secret one');
  await comment(app, own.iid, guest, 'my own flux note');
  await comment(app, open.iid, alice, 'unrelated words');
  const libIssue = await ok('POST', `/projects/${lib.id}/issues`, stranger.token, { title: 'Lib issue' });
  await comment(lib, libIssue.iid, stranger, 'flux in another project');
  firstCommit = (await commit(app, 'Add the Flux capacitor', 'flux.txt')).id;
  await commit(app, 'Unrelated change', 'other.txt');
  await commit(app, 'Fix flux overflow', 'fix.txt');
  await ok('POST', `/projects/${app.id}/repository/branches`, alice.token, { branch: 'feature', ref: 'main' });
  await commit(app, 'flux on a branch only', 'branch.txt', 'feature');
});
afterAll(() => kiln.close());

describe('GET /api/v4/projects/:id/search?scope=notes', () => {
  describe('as a reporter', () => {
    it('finds comments on every issue of the project, confidential ones too, as Note entities, counted', async () => {
      const { status, body, headers } = await search(app, reporter, { scope: 'notes', search: 'FLUX' });
      expect(status).toBe(200);
      expect(headers['x-total']).toBe('3');
      expect(body.map((note: any) => note.body).sort()).toEqual(['The Flux capacitor is broken', 'flux leak in the secret one', 'my own flux note']);
      const note = body.find((found: any) => found.body === 'The Flux capacitor is broken');
      expect(note).toMatchObject({ noteable_type: 'Issue', noteable_iid: 1, project_id: app.id, system: false, author: { username: 'alice' } });
      expect(typeof note.id).toBe('number');
    });

    it('pages them', async () => {
      const { body, headers } = await search(app, reporter, { scope: 'notes', search: 'flux', per_page: 2, page: 2 });
      expect(body).toHaveLength(1);
      expect(headers['x-total-pages']).toBe('2');
    });
  });

  describe('as a guest', () => {
    it("never shows comments on a confidential issue it cannot read, but those on its own", async () => {
      const { body } = await search(app, guest, { scope: 'notes', search: 'flux' });
      expect(body.map((note: any) => note.body).sort()).toEqual(['The Flux capacitor is broken', 'my own flux note']);
    });
  });

  describe('as a non-member of a public project', () => {
    it('finds the comments of its public issues', async () => {
      const { body } = await search(lib, reporter, { scope: 'notes', search: 'flux' });
      expect(body.map((note: any) => note.body)).toEqual(['flux in another project']);
    });
  });
});

describe('GET /api/v4/projects/:id/search?scope=commits', () => {
  describe('as a reporter', () => {
    it('finds commits of the default branch by message, case-insensitively, newest first, as CommitDetail', async () => {
      const { status, body, headers } = await search(app, reporter, { scope: 'commits', search: 'flux' });
      expect(status).toBe(200);
      expect(headers['x-total']).toBe('2');
      expect(body.map((found: any) => found.title)).toEqual(['Fix flux overflow', 'Add the Flux capacitor']);
      expect(body[1]).toMatchObject({ id: firstCommit, short_id: firstCommit.slice(0, 8), project_id: app.id, status: null, last_pipeline: null, message: 'Add the Flux capacitor' });
      expect(body[1].web_url).toBe(`http://kiln.test/acme/app/-/commit/${firstCommit}`);
    });

    it('searches another branch with `ref`, and nothing in a ref that does not exist', async () => {
      const feature = await search(app, reporter, { scope: 'commits', search: 'flux', ref: 'feature' });
      expect(feature.body.map((found: any) => found.title)).toEqual(['flux on a branch only', 'Fix flux overflow', 'Add the Flux capacitor']);
      expect((await search(app, reporter, { scope: 'commits', search: 'flux', ref: 'nope' })).body).toEqual([]);
      expect((await search(app, reporter, { scope: 'commits', search: 'flux', ref: '--output=/tmp/x' })).body).toEqual([]);
    });

    it('takes the term literally (no regular expression) and finds a commit by its sha', async () => {
      expect((await search(app, reporter, { scope: 'commits', search: 'fl.x' })).body).toEqual([]);
      const bySha = await search(app, reporter, { scope: 'commits', search: firstCommit.slice(0, 10) });
      expect(bySha.body.map((found: any) => found.id)).toEqual([firstCommit]);
    });

    it('pages them', async () => {
      const { body, headers } = await search(app, reporter, { scope: 'commits', search: 'flux', per_page: 1, page: 2 });
      expect(body.map((found: any) => found.title)).toEqual(['Add the Flux capacitor']);
      expect(headers['x-total-pages']).toBe('2');
    });
  });

  describe('as a guest of a private project', () => {
    it('finds no commits (download_code needs Reporter)', async () => {
      const { status, body } = await search(app, guest, { scope: 'commits', search: 'flux' });
      expect([status, body]).toEqual([200, []]);
    });
  });

  describe('in a project without a repository', () => {
    it('finds nothing', async () => {
      expect((await search(lib, reporter, { scope: 'commits', search: 'flux' })).body).toEqual([]);
    });
  });
});

describe('GET /api/v4/search and /groups/:id/search', () => {
  it('refuse the project-only scopes as GitLab does (scope does not have a valid value)', async () => {
    const { status, body } = await kiln.api('GET', '/search', { token: reporter.token, query: { scope: 'notes', search: 'flux' } });
    expect(status).toBe(400);
    expect(body.error).toContain('scope');
  });
});
