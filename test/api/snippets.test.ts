// Snippets (issue 38): personal snippets (/snippets, public, all, raw, files, user_agent_detail) and
// project snippets (/projects/:id/snippets) with several files each, who reads them by visibility and
// role, who changes them, the project's snippets_access_level, and GitLab's refusals naming the parameter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;
const two = [{ file_path: 'hello.py', content: 'print("hello")\n' }, { file_path: 'docs/readme.md', content: '# Read me\n' }];

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  admin = await kiln.createUser('snippet-admin', { admin: true });
});

afterAll(async () => {
  await kiln?.close();
});

async function personal(user: TestUser, body: Record<string, unknown>) {
  const created = await kiln.api('POST', '/snippets', { token: user.token, body: { title: 'Snippet', files: two, ...body }, headers: { 'user-agent': 'snippet-test/1.0' } });
  expect(created.status).toBe(201);
  return created.body;
}

describe('POST /api/v4/snippets', () => {
  it('as a signed-in user makes a snippet of two files, internal by default, with GitLab\'s entity', async () => {
    const created = await kiln.api('POST', '/snippets', { token: alice.token, body: { title: 'Two files', description: 'Both', files: two } });
    expect(created.status).toBe(201);
    const web = `${kiln.deps.config.baseUrl}/-/snippets/${created.body.id}`;
    expect(created.body).toEqual({
      id: expect.any(Number), title: 'Two files', description: 'Both', visibility: 'internal',
      author: expect.objectContaining({ id: alice.id, username: 'alice' }),
      created_at: '2026-11-22T08:00:00.000Z', updated_at: '2026-11-22T08:00:00.000Z', project_id: null,
      web_url: web, raw_url: `${web}/raw`, ssh_url_to_repo: `${kiln.deps.config.sshUrlPrefix}snippets/${created.body.id}.git`, http_url_to_repo: `${kiln.deps.config.baseUrl}/snippets/${created.body.id}.git`, file_name: 'hello.py',
      files: [{ path: 'hello.py', raw_url: `${web}/raw/main/hello.py` }, { path: 'docs/readme.md', raw_url: `${web}/raw/main/docs/readme.md` }],
      imported: false, imported_from: 'none',
    });
  });

  it('takes the older content and file_name, and names a file sent without a name', async () => {
    const old = await kiln.api('POST', '/snippets', { token: alice.token, body: { title: 'Old style', file_name: 'a.rb', content: 'puts 1', visibility: 'private' } });
    expect(old.body).toMatchObject({ visibility: 'private', file_name: 'a.rb', files: [{ path: 'a.rb' }] });
    const unnamed = await kiln.api('POST', '/snippets', { token: alice.token, body: { title: 'Unnamed', content: 'x' } });
    expect(unnamed.body.file_name).toBe('snippetfile1.txt');
  });

  it('refuses what GitLab refuses, naming the parameter', async () => {
    const eleven = Array.from({ length: 11 }, (_, index) => ({ file_path: `f${index}.txt`, content: 'x' }));
    const cases: Array<[Record<string, unknown>, unknown]> = [
      [{ files: two }, { error: 'title is missing' }],
      [{ title: '', files: two }, { error: 'title is empty' }],
      [{ title: 'x' }, { error: 'content, files are missing, exactly one parameter must be provided' }],
      [{ title: 'x', content: 'a', files: two }, { error: 'content, files are mutually exclusive' }],
      [{ title: 'x', files: two, visibility: 'secret' }, { error: 'visibility does not have a valid value' }],
      [{ title: 'x', files: 'nope' }, { error: 'files is invalid' }],
      [{ title: 'x', files: [{ file_path: '../etc/passwd', content: 'x' }] }, { error: 'files[0][file_path] is invalid' }],
      [{ title: 'x', files: [{ file_path: 'a.txt' }] }, { error: 'files[0][content] is missing' }],
      [{ title: 'x', files: [{ file_path: 'a.txt', content: 'a' }, { file_path: 'a.txt', content: 'b' }] }, { message: '400 Bad request - Snippet files must have unique paths' }],
      [{ title: 'x', files: eleven }, { message: '400 Bad request - Snippet files count exceeded the maximum of 10' }],
      [{ title: 'x'.repeat(256), files: two }, { message: { title: ['is too long (maximum is 255 characters)'] } }],
    ];
    for (const [body, error] of cases) {
      const answer = await kiln.api('POST', '/snippets', { token: alice.token, body });
      expect([JSON.stringify(body).slice(0, 60), answer.status, answer.body]).toEqual([JSON.stringify(body).slice(0, 60), 400, error]);
    }
  });

  it('as an anonymous caller is 401', async () => {
    expect((await kiln.api('POST', '/snippets', { body: { title: 'x', content: 'y' } })).status).toBe(401);
  });
});

describe('GET /api/v4/snippets/:id', () => {
  it('shows a private snippet to its author and administrators only, an internal one to signed-in users, a public one to anyone', async () => {
    const seen = async (snippet: any) => Promise.all([alice, bob, admin, null].map(async (user) => (await kiln.api('GET', `/snippets/${snippet.id}`, { token: user?.token })).status));
    expect(await seen(await personal(alice, { visibility: 'private' }))).toEqual([200, 404, 200, 404]);
    expect(await seen(await personal(alice, { visibility: 'internal' }))).toEqual([200, 200, 200, 404]);
    expect(await seen(await personal(alice, { visibility: 'public' }))).toEqual([200, 200, 200, 200]);
    expect((await kiln.api('GET', '/snippets/999999', { token: alice.token })).body).toEqual({ message: '404 Snippet Not Found' });
  });

  it('/raw answers the first file as plain text, /files/:ref/:file_path/raw any file', async () => {
    const snippet = await personal(alice, { visibility: 'public' });
    const raw = await kiln.request('GET', `/api/v4/snippets/${snippet.id}/raw`);
    expect([raw.statusCode, raw.headers['content-type'], raw.headers['x-content-type-options'], raw.body]).toEqual([200, 'text/plain; charset=utf-8', 'nosniff', 'print("hello")\n']);
    const file = await kiln.request('GET', `/api/v4/snippets/${snippet.id}/files/main/${encodeURIComponent('docs/readme.md')}/raw`);
    expect([file.statusCode, file.body]).toEqual([200, '# Read me\n']);
    expect((await kiln.request('GET', `/api/v4/snippets/${snippet.id}/files/other/hello.py/raw`)).statusCode).toBe(404);
    expect((await kiln.request('GET', `/api/v4/snippets/${snippet.id}/files/main/missing.txt/raw`)).statusCode).toBe(404);
    const hidden = await personal(alice, { visibility: 'private' });
    expect((await kiln.request('GET', `/api/v4/snippets/${hidden.id}/raw`, { token: bob.token })).statusCode).toBe(404);
  });

  it('/user_agent_detail is for administrators', async () => {
    const snippet = await personal(alice, {});
    expect((await kiln.api('GET', `/snippets/${snippet.id}/user_agent_detail`, { token: alice.token })).status).toBe(403);
    const detail = await kiln.api('GET', `/snippets/${snippet.id}/user_agent_detail`, { token: admin.token });
    expect([detail.status, detail.body]).toEqual([200, { user_agent: 'snippet-test/1.0', ip_address: expect.any(String), akismet_submitted: false }]);
  });
});

describe('GET /api/v4/snippets, /snippets/public, /snippets/all', () => {
  it('lists the caller\'s own, the public personal ones, and what the caller may read (everything for administrators)', async () => {
    const mine = await personal(bob, { title: 'bob private', visibility: 'private' });
    const theirs = await personal(alice, { title: 'alice private', visibility: 'private' });
    const open = await personal(alice, { title: 'alice public', visibility: 'public' });
    const ids = (answer: { body: any[] }) => answer.body.map((snippet) => snippet.id);
    const own = await kiln.api('GET', '/snippets', { token: bob.token, query: { per_page: 100 } });
    expect(own.body.every((snippet: any) => snippet.author.id === bob.id)).toBe(true);
    expect(ids(own)).toContain(mine.id);
    const open_ = await kiln.api('GET', '/snippets/public', { token: bob.token, query: { per_page: 100 } });
    expect(ids(open_)).toContain(open.id);
    expect(open_.body.every((snippet: any) => snippet.visibility === 'public')).toBe(true);
    expect(ids(await kiln.api('GET', '/snippets/all', { token: bob.token, query: { per_page: 100 } }))).not.toContain(theirs.id);
    expect(ids(await kiln.api('GET', '/snippets/all', { token: admin.token, query: { per_page: 100 } }))).toEqual(expect.arrayContaining([theirs.id, mine.id, open.id]));
    expect((await kiln.api('GET', '/snippets')).status).toBe(401);
  });
});

describe('PUT /api/v4/snippets/:id', () => {
  it('as the author changes the title and the files with create, update, move and delete actions', async () => {
    const snippet = await personal(alice, { visibility: 'public' });
    const updated = await kiln.api('PUT', `/snippets/${snippet.id}`, {
      token: alice.token,
      body: {
        title: 'Renamed', visibility: 'private',
        files: [
          { action: 'update', file_path: 'hello.py', content: 'print("bye")\n' },
          { action: 'move', previous_path: 'docs/readme.md', file_path: 'README.md' },
          { action: 'create', file_path: 'new.txt', content: 'new' },
        ],
      },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ title: 'Renamed', visibility: 'private', files: [{ path: 'hello.py' }, { path: 'README.md' }, { path: 'new.txt' }] });
    expect((await kiln.request('GET', `/api/v4/snippets/${snippet.id}/files/main/README.md/raw`, { token: alice.token })).body).toBe('# Read me\n');
    const deleted = await kiln.api('PUT', `/snippets/${snippet.id}`, { token: alice.token, body: { files: [{ action: 'delete', file_path: 'new.txt' }, { action: 'delete', file_path: 'README.md' }] } });
    expect(deleted.body.files).toEqual([{ path: 'hello.py', raw_url: expect.stringMatching(/raw\/main\/hello\.py$/) }]);
    const single = await kiln.api('PUT', `/snippets/${snippet.id}`, { token: alice.token, body: { content: 'one file', file_name: 'one.txt' } });
    expect(single.body.files.map((file: any) => file.path)).toEqual(['one.txt']);
    expect((await kiln.request('GET', `/api/v4/snippets/${snippet.id}/raw`, { token: alice.token })).body).toBe('one file');
  });

  it('takes files without an action: an update of the file they name, else a new file', async () => {
    const snippet = await personal(alice, {});
    const updated = await kiln.api('PUT', `/snippets/${snippet.id}`, {
      token: alice.token,
      body: { files: [{ file_path: 'hello.py', content: 'print("again")\n' }, { file_path: 'extra.txt', content: 'more' }, { file_path: 'docs/guide.md', previous_path: 'docs/readme.md', content: '# Guide\n' }] },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.files.map((file: any) => file.path)).toEqual(['hello.py', 'docs/guide.md', 'extra.txt']);
    expect((await kiln.request('GET', `/api/v4/snippets/${snippet.id}/raw`, { token: alice.token })).body).toBe('print("again")\n');
    expect((await kiln.api('PUT', `/snippets/${snippet.id}`, { token: alice.token, body: { files: [{ file_path: 'a.txt' }] } })).body).toEqual({ error: 'files[0][content] is missing' });
    expect((await kiln.api('PUT', `/snippets/${snippet.id}`, { token: alice.token, body: { files: [{ action: '', file_path: 'a.txt', content: 'x' }] } })).body).toEqual({ error: 'files[0][action] does not have a valid value' });
  });

  it('refuses a change it cannot make, naming it, and leaves the snippet as it was', async () => {
    const snippet = await personal(alice, {});
    const cases: Array<[Record<string, unknown>, unknown]> = [
      [{}, { error: 'title, file_name, content, files, visibility, description are missing, at least one parameter must be provided' }],
      [{ content: 'x' }, { message: '400 Bad request - To update Snippets with multiple files, you must use the `files` parameter' }],
      [{ files: [{ action: 'rename', file_path: 'a' }] }, { error: 'files[0][action] does not have a valid value' }],
      [{ files: [{ action: 'create', file_path: 'hello.py', content: 'x' }] }, { message: '400 Bad request - A file with this name already exists: hello.py' }],
      [{ files: [{ action: 'update', file_path: 'nope.py', content: 'x' }] }, { message: "400 Bad request - A file with this name doesn't exist: nope.py" }],
      [{ files: [{ action: 'delete', file_path: 'hello.py' }, { action: 'delete', file_path: 'docs/readme.md' }] }, { message: '400 Bad request - Snippet must have at least one file' }],
      [{ title: 'x', files: [{ action: 'move', file_path: 'x.py' }] }, { error: 'files[0][previous_path] is missing' }],
    ];
    for (const [body, error] of cases) {
      const answer = await kiln.api('PUT', `/snippets/${snippet.id}`, { token: alice.token, body });
      expect([JSON.stringify(body).slice(0, 60), answer.status, answer.body]).toEqual([JSON.stringify(body).slice(0, 60), 400, error]);
    }
    expect((await kiln.api('GET', `/snippets/${snippet.id}`, { token: alice.token })).body).toMatchObject({ title: 'Snippet', files: [{ path: 'hello.py' }, { path: 'docs/readme.md' }] });
  });

  it('as another user is 403 for a snippet they read and 404 for one they do not; an administrator may', async () => {
    const internal = await personal(alice, {});
    const hidden = await personal(alice, { visibility: 'private' });
    expect((await kiln.api('PUT', `/snippets/${internal.id}`, { token: bob.token, body: { title: 'mine' } })).status).toBe(403);
    expect((await kiln.api('PUT', `/snippets/${hidden.id}`, { token: bob.token, body: { title: 'mine' } })).status).toBe(404);
    expect((await kiln.api('DELETE', `/snippets/${internal.id}`, { token: bob.token })).status).toBe(403);
    expect((await kiln.api('PUT', `/snippets/${hidden.id}`, { token: admin.token, body: { title: 'by admin' } })).body.title).toBe('by admin');
  });
});

describe('bad input to the snippet write routes', () => {
  it('is a 400 naming the parameter, never a 500', async () => {
    const snippet = await personal(alice, {});
    const project = await kiln.createProject(alice, 'snippets-fuzz', { visibility: 'private' });
    const bodies: Array<Record<string, unknown>> = [
      { title: 42, files: two }, { title: ['a'], files: two }, { title: 'x', description: { a: 1 }, files: two },
      { title: 'x', visibility: ['public'], files: two }, { title: 'x', files: { file_path: 'a' } }, { title: 'x', files: [null] },
      { title: 'x', files: [{ file_path: 7, content: 'a' }] }, { title: 'x', files: [{ file_path: 'a', content: 7 }] },
      { title: 'x', files: [{ file_path: 'a\u0000b', content: 'a' }] }, { title: 'x', files: [{ file_path: 'é/ü/😀.txt', content: 'ü😀' }] },
      { title: 'x', files: [{ file_path: 'x'.repeat(300), content: 'a' }] }, { title: 'x', files: [{ file_path: '/abs', content: 'a' }] },
      { title: 'x', files: [{ file_path: 'a', content: 'x' }, { file_path: 'a/b', content: 'y' }] },
      { title: 'x', content: 'a', file_name: '../up' }, { title: 'x', content: 'a'.repeat(11 * 1024 * 1024) },
      { title: 'x'.repeat(100_000), content: 'a' }, { title: 'x', files: Array.from({ length: 1000 }, () => ({})) },
    ];
    for (const body of bodies) {
      for (const [method, path] of [['POST', '/snippets'], ['POST', `/projects/${project.id}/snippets`], ['PUT', `/snippets/${snippet.id}`]] as const) {
        const sent = method === 'POST' && path !== '/snippets' ? { visibility: 'private', ...body } : body;
        const answer = await kiln.api(method, path, { token: alice.token, body: sent });
        const label = `${method} ${path} ${JSON.stringify(sent).slice(0, 80)}`;
        expect([label, answer.status < 500]).toEqual([label, true]);
        if (answer.status >= 400) expect([label, typeof (answer.body.error ?? answer.body.message)]).not.toEqual([label, 'undefined']);
      }
    }
    for (const path of ['/snippets/abc', '/snippets/99999999999999999999', `/projects/${project.id}/snippets/abc`]) {
      expect((await kiln.api('PUT', path, { token: alice.token, body: { title: 'x' } })).status).toBe(400);
    }
    const nested = await kiln.api('POST', '/snippets', { token: alice.token, body: { title: 'x', files: [{ file_path: 'a', content: 'x' }, { file_path: 'a/b', content: 'y' }] } });
    expect(nested).toMatchObject({ status: 400, body: { message: '400 Bad request - A file with this name already exists as a directory of a/b: a' } });
    // The unicode path sent without an action was a new file of the snippet.
    expect((await kiln.request('GET', `/api/v4/snippets/${snippet.id}/files/main/${encodeURIComponent('é/ü/😀.txt')}/raw`, { token: alice.token })).body).toBe('ü😀');
  });
});

describe('DELETE /api/v4/snippets/:id', () => {
  it('as the author answers 204 and the snippet is gone', async () => {
    const snippet = await personal(alice, {});
    expect((await kiln.api('DELETE', `/snippets/${snippet.id}`, { token: alice.token })).status).toBe(204);
    expect((await kiln.api('GET', `/snippets/${snippet.id}`, { token: alice.token })).status).toBe(404);
  });
});

describe('/api/v4/projects/:id/snippets', () => {
  let owner: TestUser;
  let guest: TestUser;
  let reporter: TestUser;
  let maintainer: TestUser;
  let outsider: TestUser;
  let privateProject: any;
  let publicProject: any;

  beforeAll(async () => {
    owner = await kiln.createUser('snippet-owner');
    guest = await kiln.createUser('snippet-guest');
    reporter = await kiln.createUser('snippet-reporter');
    maintainer = await kiln.createUser('snippet-maintainer');
    outsider = await kiln.createUser('snippet-outsider');
    privateProject = await kiln.createProject(owner, 'snippets-private', { visibility: 'private' });
    publicProject = await kiln.createProject(owner, 'snippets-public', { visibility: 'public' });
    for (const project of [privateProject, publicProject]) {
      await kiln.addMember(owner, 'projects', project.id, guest, ACCESS.guest);
      await kiln.addMember(owner, 'projects', project.id, reporter, ACCESS.reporter);
      await kiln.addMember(owner, 'projects', project.id, maintainer, ACCESS.maintainer);
    }
  });

  const create = (user: TestUser, project: any, body: Record<string, unknown> = {}) =>
    kiln.api('POST', `/projects/${project.id}/snippets`, { token: user.token, body: { title: 'Project snippet', visibility: 'private', files: two, ...body } });

  it('POST as a Reporter makes one (web_url under the project); a Guest is 403; visibility is required', async () => {
    const created = await create(reporter, privateProject);
    expect(created.status).toBe(201);
    const web = `${kiln.deps.config.baseUrl}/${privateProject.path_with_namespace}/-/snippets/${created.body.id}`;
    expect(created.body).toMatchObject({
      project_id: privateProject.id, web_url: web, raw_url: `${web}/raw`, files: [{ raw_url: `${web}/raw/main/hello.py` }, {}],
      http_url_to_repo: `${kiln.deps.config.baseUrl}/${privateProject.path_with_namespace}/snippets/${created.body.id}.git`,
      ssh_url_to_repo: `${kiln.deps.config.sshUrlPrefix}${privateProject.path_with_namespace}/snippets/${created.body.id}.git`,
    });
    expect((await create(guest, privateProject)).status).toBe(403);
    expect((await create(outsider, privateProject)).status).toBe(404);
    expect((await kiln.api('POST', `/projects/${privateProject.id}/snippets`, { token: reporter.token, body: { title: 'x', content: 'y' } })).body).toEqual({ error: 'visibility is missing' });
  });

  it('GET reads as the project and each snippet\'s visibility allow', async () => {
    const hidden = (await create(owner, publicProject, { title: 'members only', visibility: 'private' })).body;
    const internal = (await create(owner, publicProject, { title: 'signed in', visibility: 'internal' })).body;
    const open = (await create(owner, publicProject, { title: 'everyone', visibility: 'public' })).body;
    const listed = async (token?: string) => (await kiln.api('GET', `/projects/${publicProject.id}/snippets`, { token })).body.map((snippet: any) => snippet.id);
    expect(await listed(guest.token)).toEqual([open.id, internal.id, hidden.id]);
    expect(await listed(outsider.token)).toEqual([open.id, internal.id]);
    expect(await listed()).toEqual([open.id]);
    expect((await kiln.api('GET', `/projects/${publicProject.id}/snippets/${hidden.id}`, { token: outsider.token })).status).toBe(404);
    expect((await kiln.api('GET', `/projects/${publicProject.id}/snippets/${open.id}`)).body.title).toBe('everyone');
    expect((await kiln.request('GET', `/api/v4/projects/${publicProject.id}/snippets/${open.id}/raw`)).body).toBe('print("hello")\n');
    expect((await kiln.request('GET', `/api/v4/projects/${publicProject.id}/snippets/${open.id}/files/main/docs%2Freadme.md/raw`)).body).toBe('# Read me\n');
    // A project snippet is not a personal one: /snippets/:id does not answer for it.
    expect((await kiln.api('GET', `/snippets/${open.id}`, { token: owner.token })).status).toBe(404);
    expect((await kiln.api('GET', `/projects/${privateProject.id}/snippets`, { token: outsider.token })).status).toBe(404);
  });

  it('PUT and DELETE: the author and Maintainers change a snippet, other members are 403', async () => {
    const snippet = (await create(reporter, privateProject)).body;
    const url = `/projects/${privateProject.id}/snippets/${snippet.id}`;
    expect((await kiln.api('PUT', url, { token: guest.token, body: { title: 'guest' } })).status).toBe(403);
    expect((await kiln.api('PUT', url, { token: reporter.token, body: { title: 'author' } })).body.title).toBe('author');
    expect((await kiln.api('PUT', url, { token: maintainer.token, body: { description: 'maintainer' } })).body).toMatchObject({ title: 'author', description: 'maintainer' });
    expect((await kiln.api('DELETE', url, { token: guest.token })).status).toBe(403);
    expect((await kiln.api('DELETE', url, { token: maintainer.token })).status).toBe(204);
    expect((await kiln.api('GET', url, { token: owner.token })).status).toBe(404);
  });

  it('snippets_access_level: disabled is 403 for everyone, private keeps them from non-members of a public project', async () => {
    const open = (await create(owner, publicProject, { visibility: 'public' })).body;
    const set = async (level: string) => expect((await kiln.api('PUT', `/projects/${publicProject.id}`, { token: owner.token, body: { snippets_access_level: level } })).status).toBe(200);
    await set('private');
    expect((await kiln.api('GET', `/projects/${publicProject.id}/snippets`, { token: outsider.token })).status).toBe(403);
    expect((await kiln.api('GET', `/projects/${publicProject.id}/snippets/${open.id}`)).status).toBe(403);
    expect((await kiln.api('GET', `/projects/${publicProject.id}/snippets`, { token: guest.token })).status).toBe(200);
    await set('disabled');
    expect((await kiln.api('GET', `/projects/${publicProject.id}/snippets`, { token: owner.token })).status).toBe(403);
    expect((await create(owner, publicProject)).status).toBe(403);
    expect((await kiln.api('PUT', `/projects/${publicProject.id}`, { token: owner.token, body: { snippets_enabled: true } })).body.snippets_access_level).toBe('enabled');
    expect((await kiln.api('GET', `/projects/${publicProject.id}/snippets/${open.id}`)).status).toBe(200);
  });

  it('notes: members comment on a project snippet they read; others are 404; the author edits and deletes', async () => {
    const snippet = (await create(reporter, privateProject)).body;
    const notes = `/projects/${privateProject.id}/snippets/${snippet.id}/notes`;
    const posted = await kiln.api('POST', notes, { token: guest.token, body: { body: 'Looks **good**' } });
    expect(posted.status).toBe(201);
    expect(posted.body).toMatchObject({ body: 'Looks **good**', author: { username: 'snippet-guest' }, noteable_type: 'Snippet', noteable_id: snippet.id, noteable_iid: null, system: false });
    expect((await kiln.api('GET', notes, { token: maintainer.token })).body.map((note: any) => note.id)).toEqual([posted.body.id]);
    expect((await kiln.api('GET', `${notes}/${posted.body.id}`, { token: reporter.token })).body.body).toBe('Looks **good**');
    expect((await kiln.api('PUT', `${notes}/${posted.body.id}`, { token: guest.token, body: { body: 'edited' } })).body.body).toBe('edited');
    expect((await kiln.api('PUT', `${notes}/${posted.body.id}`, { token: reporter.token, body: { body: 'not mine' } })).status).toBe(403);
    expect((await kiln.api('GET', notes, { token: outsider.token })).status).toBe(404);
    expect((await kiln.api('POST', notes, { token: outsider.token, body: { body: 'x' } })).status).toBe(404);
    expect((await kiln.api('POST', notes, { token: guest.token, body: {} })).body).toEqual({ error: 'body is missing' });
    expect((await kiln.api('GET', `/projects/${privateProject.id}/snippets/999999/notes`, { token: guest.token })).status).toBe(404);
    const thread = await kiln.api('POST', `/projects/${privateProject.id}/snippets/${snippet.id}/discussions`, { token: maintainer.token, body: { body: 'A thread' } });
    expect(thread.status).toBe(201);
    const reply = await kiln.api('POST', `/projects/${privateProject.id}/snippets/${snippet.id}/discussions/${thread.body.id}/notes`, { token: guest.token, body: { body: 'A reply' } });
    expect(reply.status).toBe(201);
    expect((await kiln.api('GET', `/projects/${privateProject.id}/snippets/${snippet.id}/discussions`, { token: guest.token })).body.map((d: any) => d.notes.length)).toEqual([1, 2]);
    expect((await kiln.api('DELETE', `${notes}/${posted.body.id}`, { token: guest.token })).status).toBe(204);
    // Another project's snippet is not found under this one.
    const other = (await create(owner, publicProject)).body;
    expect((await kiln.api('GET', `/projects/${privateProject.id}/snippets/${other.id}/notes`, { token: owner.token })).status).toBe(404);
  });

  it('user_agent_detail is for administrators', async () => {
    const snippet = (await create(owner, privateProject)).body;
    expect((await kiln.api('GET', `/projects/${privateProject.id}/snippets/${snippet.id}/user_agent_detail`, { token: owner.token })).status).toBe(403);
    expect((await kiln.api('GET', `/projects/${privateProject.id}/snippets/${snippet.id}/user_agent_detail`, { token: admin.token })).body).toMatchObject({ akismet_submitted: false });
  });
});
