// Editing files in the browser, each change a commit (issue 35): new file, edit, delete, upload and
// new directory, on the current branch or a new one; the refusals of a push to a protected branch;
// an edit of a file changed meanwhile refused with GitLab's message and the typed content kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession, csrfTokenOf } from '../helpers/browser-session.js';
import { multipart } from '../helpers/multipart.js';
import { commit, create, update } from './repository-api-driver.js';

let kiln: TestKiln;
let owner: TestUser;
let developer: TestUser;
let reporter: TestUser;
let project: any;
let web: WebSession;

async function fileOf(path: string, ref: string) {
  const response = await kiln.api('GET', `/projects/${project.id}/repository/files/${encodeURIComponent(path)}`, { token: owner.token, query: { ref } });
  return response.status === 200 ? Buffer.from(response.body.content, 'base64').toString('utf8') : null;
}

async function headOf(branch: string) {
  return (await kiln.api('GET', `/projects/${project.id}/repository/branches/${encodeURIComponent(branch)}`, { token: owner.token })).body.commit;
}

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  developer = await kiln.createUser('developer');
  reporter = await kiln.createUser('reporter');
  project = await kiln.createProject(owner, 'shop');
  await kiln.addMember(owner, 'projects', project.id, developer, 30);
  await kiln.addMember(owner, 'projects', project.id, reporter, 20);
  await commit(kiln, owner.token, project.id, { branch: 'main', actions: [create('README.md', '# Shop\n'), create('src/app.ts', 'export const a = 1;\n')] });
  web = new WebSession(kiln);
  await web.signIn(owner.username, owner.password);
});
afterAll(() => kiln.close());

describe('POST /:project/-/create/:branch/:dir', () => {
  it('commits a new file in the folder the form was opened in', async () => {
    const response = await web.post('/owner/shop/-/create/main/src', { file_name: 'lib.ts', content: 'export const lib = 1;\n', commit_message: 'Add the lib', branch_name: 'main' }, { csrfFrom: '/owner/shop/-/new/main/src' });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/owner/shop/-/blob/main/src/lib.ts');
    expect(await fileOf('src/lib.ts', 'main')).toBe('export const lib = 1;\n');
    expect((await headOf('main')).title).toBe('Add the lib');
  });

  it('refuses a file that exists, keeping what was typed', async () => {
    const response = await web.post('/owner/shop/-/create/main', { file_name: 'README.md', content: 'typed <b>text</b>', commit_message: 'x', branch_name: 'main' }, { csrfFrom: '/owner/shop/-/new/main' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('A file with this name already exists');
    expect(response.body).toContain('typed &lt;b&gt;text&lt;/b&gt;');
  });

  it('commits to a new branch started from the current one', async () => {
    const response = await web.post('/owner/shop/-/create/main', { file_name: 'NEW.md', content: 'new\n', commit_message: 'On a branch', branch_name: 'feature/new' }, { csrfFrom: '/owner/shop/-/new/main' });
    expect(response.headers.location).toBe('/owner/shop/-/blob/feature/new/NEW.md');
    expect(await fileOf('NEW.md', 'feature/new')).toBe('new\n');
    expect(await fileOf('NEW.md', 'main')).toBeNull();
  });
});

describe('POST /:project/-/update/:branch/:path', () => {
  it('commits new content given with the file’s last commit', async () => {
    const form = await web.get('/owner/shop/-/edit/main/src/app.ts');
    expect(form.statusCode).toBe(200);
    const last = /name="last_commit_id" value="([0-9a-f]{40})"/.exec(form.body)![1];
    const response = await web.post('/owner/shop/-/update/main/src/app.ts', { authenticity_token: csrfTokenOf(form.body), last_commit_id: last, content: 'export const a = 2;\r\n', commit_message: 'Two', branch_name: 'main' });
    expect(response.statusCode).toBe(303);
    expect(await fileOf('src/app.ts', 'main')).toBe('export const a = 2;\n');
  });

  it('refuses an edit of a file changed meanwhile with GitLab’s message, and keeps the typed content', async () => {
    const form = await web.get('/owner/shop/-/edit/main/src/app.ts');
    const last = /name="last_commit_id" value="([0-9a-f]{40})"/.exec(form.body)![1];
    await commit(kiln, owner.token, project.id, { branch: 'main', actions: [update('src/app.ts', 'export const a = 3;\n')] });
    const response = await web.post('/owner/shop/-/update/main/src/app.ts', { authenticity_token: csrfTokenOf(form.body), last_commit_id: last, content: 'my edit', commit_message: 'Mine', branch_name: 'main' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('You are attempting to update a file that has changed since you started editing it.');
    expect(response.body).toContain('my edit');
    expect(await fileOf('src/app.ts', 'main')).toBe('export const a = 3;\n');
  });

  it('takes an edit after the branch moved when the file itself did not change', async () => {
    const form = await web.get('/owner/shop/-/edit/main/README.md');
    const last = /name="last_commit_id" value="([0-9a-f]{40})"/.exec(form.body)![1];
    await commit(kiln, owner.token, project.id, { branch: 'main', actions: [create('other.txt', 'x\n')] });
    const response = await web.post('/owner/shop/-/update/main/README.md', { authenticity_token: csrfTokenOf(form.body), last_commit_id: last, content: '# Shop!\n', commit_message: 'Readme', branch_name: 'main' });
    expect(response.statusCode).toBe(303);
    expect(await fileOf('other.txt', 'main')).toBe('x\n');
  });
});

describe('protected branches', () => {
  it('refuse a developer’s commit with a push’s message, and take it on a new branch', async () => {
    const dev = new WebSession(kiln);
    await dev.signIn(developer.username, developer.password);
    const refused = await dev.post('/owner/shop/-/create/main', { file_name: 'dev.txt', content: 'x', commit_message: 'Dev', branch_name: 'main' }, { csrfFrom: '/owner/shop/-/new/main' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('You are not allowed to push into this branch');
    const taken = await dev.post('/owner/shop/-/create/main', { file_name: 'dev.txt', content: 'x', commit_message: 'Dev', branch_name: 'dev-branch' }, { csrfFrom: '/owner/shop/-/new/main' });
    expect(taken.statusCode).toBe(303);
  });

  it('a reporter cannot open the forms', async () => {
    const asReporter = new WebSession(kiln);
    await asReporter.signIn(reporter.username, reporter.password);
    expect((await asReporter.get('/owner/shop/-/new/main')).statusCode).toBe(403);
    expect((await asReporter.get('/owner/shop/-/edit/main/README.md')).statusCode).toBe(403);
  });
});

describe('POST /:project/-/upload and /-/new_dir and /-/delete', () => {
  it('uploads a file as a commit', async () => {
    const form = await web.get('/owner/shop/-/upload/main/src');
    const body = await multipart({ authenticity_token: csrfTokenOf(form.body), commit_message: 'Upload', branch_name: 'main', file: { filename: 'data.bin', data: Buffer.from([0, 1, 2, 3]) } });
    const response = await kiln.app.inject({ method: 'POST', url: '/owner/shop/-/upload/main/src', headers: { cookie: web.cookie, 'content-type': body.contentType }, payload: body.payload });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/owner/shop/-/blob/main/src/data.bin');
    const raw = await web.get('/owner/shop/-/raw/main/src/data.bin');
    expect(raw.rawPayload).toEqual(Buffer.from([0, 1, 2, 3]));
  });

  it('makes a directory with a .gitkeep', async () => {
    const response = await web.post('/owner/shop/-/new_dir/main', { dir_name: 'docs/api', commit_message: 'Docs', branch_name: 'main' }, { csrfFrom: '/owner/shop/-/new_dir/main' });
    expect(response.headers.location).toBe('/owner/shop/-/tree/main/docs/api');
    expect(await fileOf('docs/api/.gitkeep', 'main')).toBe('');
  });

  it('deletes a file as a commit', async () => {
    const response = await web.post('/owner/shop/-/delete/main/other.txt', { commit_message: 'Remove', branch_name: 'main' }, { csrfFrom: '/owner/shop/-/blob/main/other.txt' });
    expect(response.statusCode).toBe(303);
    expect(await fileOf('other.txt', 'main')).toBeNull();
  });

  it('refuses a path that climbs out of the repository', async () => {
    const response = await web.post('/owner/shop/-/create/main', { file_name: '../../etc/x', content: 'x', commit_message: 'x', branch_name: 'main' }, { csrfFrom: '/owner/shop/-/new/main' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Path cannot include directory traversal');
  });

  it('refuses a form without the CSRF token', async () => {
    const response = await kiln.app.inject({ method: 'POST', url: '/owner/shop/-/delete/main/README.md', headers: { cookie: web.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'commit_message=x' });
    expect(response.statusCode).toBe(422);
    expect(await fileOf('README.md', 'main')).not.toBeNull();
  });
});

describe('POST /api/v4/projects with initialize_with_readme', () => {
  it('makes the first commit, README.md on the default branch, as the creator', async () => {
    const created = await kiln.api('POST', '/projects', { token: owner.token, body: { name: 'Fresh', path: 'fresh', description: 'A <b>new</b> one', initialize_with_readme: true } });
    expect(created.status).toBe(201);
    const branch = await kiln.api('GET', `/projects/${created.body.id}/repository/branches/main`, { token: owner.token });
    expect(branch.status).toBe(200);
    expect(branch.body.commit.title).toBe('Initial commit');
    expect(branch.body.commit.author_name).toBe('User owner');
    const readme = await kiln.api('GET', `/projects/${created.body.id}/repository/files/README.md/raw`, { token: owner.token, query: { ref: 'main' } });
    expect(readme.body).toBe('# Fresh\n\nA <b>new</b> one\n');
  });

  it('leaves the repository empty without it (or with false)', async () => {
    const created = await kiln.api('POST', '/projects', { token: owner.token, body: { name: 'Bare', path: 'bare', initialize_with_readme: 'false' } });
    expect((await kiln.api('GET', `/projects/${created.body.id}/repository/branches`, { token: owner.token })).body).toEqual([]);
  });
});
