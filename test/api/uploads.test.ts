// Markdown uploads (issue 38): POST /projects/:id/uploads, the files served at the project's
// /uploads/<secret>/<name> and /-/project/<id>/uploads/… to whoever reads the project, types that never
// run as a page, the size limit, the Maintainers' list/download/delete, statistics, links in Markdown,
// and the files of a deleted project removed from disk.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { multipart, TINY_PNG } from '../helpers/multipart.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { signedIn } from './oauth-driver.js';
import { csrfTokenOf, type WebSession } from '../helpers/browser-session.js';
import { projectUploadsDirectory, uploadFilePath } from '../../src/uploads/upload-files.js';
import { pruneOrphanUploads } from '../../src/uploads/prune-orphan-uploads.js';

let kiln: TestKiln;
let owner: TestUser;
let developer: TestUser;
let guest: TestUser;
let outsider: TestUser;
let project: { id: number; path_with_namespace: string };

async function upload(user: TestUser | null, projectId: number, fields: Parameters<typeof multipart>[0]) {
  const { payload, contentType } = await multipart(fields);
  const headers: Record<string, string> = { 'content-type': contentType };
  if (user) headers['private-token'] = user.token;
  const response = await kiln.app.inject({ method: 'POST', url: `/api/v4/projects/${projectId}/uploads`, headers, payload });
  return { status: response.statusCode, body: JSON.parse(response.body) };
}

const png = { file: { filename: 'dk.png', data: TINY_PNG, type: 'image/png' } };

beforeAll(async () => {
  kiln = await testKiln();
  [owner, developer, guest, outsider] = await Promise.all(['owner', 'dev', 'guest', 'outsider'].map((name) => kiln.createUser(name)));
  project = await kiln.createProject(owner, 'secret-plans', { visibility: 'private' });
  await kiln.addMember(owner, 'projects', project.id, developer, ACCESS.developer);
  await kiln.addMember(owner, 'projects', project.id, guest, ACCESS.guest);
});

afterAll(async () => {
  await kiln?.close();
});

describe('POST /api/v4/projects/:id/uploads', () => {
  it('as a developer stores the file and answers GitLab\'s ProjectUpload', async () => {
    const { status, body } = await upload(developer, project.id, png);
    expect(status).toBe(201);
    expect(body).toEqual({
      id: expect.any(Number),
      alt: 'dk',
      url: expect.stringMatching(/^\/uploads\/[0-9a-f]{32}\/dk\.png$/),
      full_path: `/-/project/${project.id}${body.url}`,
      markdown: `![dk](${body.url})`,
    });
    const secret = body.url.split('/')[2];
    expect(existsSync(uploadFilePath(kiln.deps.config.uploadsPath, project.id, secret))).toBe(true);
  });

  it('as a guest of the private project uploads too (whoever may comment may attach)', async () => {
    expect((await upload(guest, project.id, png)).status).toBe(201);
  });

  it('links other files by name, without the image mark', async () => {
    const { body } = await upload(developer, project.id, { file: { filename: 'notes.txt', data: Buffer.from('hello') } });
    expect([body.alt, body.markdown]).toEqual(['notes.txt', `[notes.txt](${body.url})`]);
  });

  it('reduces the file name to safe characters and escapes it in the Markdown', async () => {
    const { status, body } = await upload(developer, project.id, { file: { filename: '../<img src=x onerror=alert(1)>[a].html', data: Buffer.from('<script>alert(1)</script>') } });
    expect(status).toBe(201);
    expect(body.url).toMatch(/^\/uploads\/[0-9a-f]{32}\/_img_src_x_onerror_alert_1___a_\.html$/);
    expect(body.markdown).toBe(`[_img_src_x_onerror_alert_1___a_.html](${body.url})`);
    const dots = await upload(developer, project.id, { file: { filename: '..', data: Buffer.from('x') } });
    expect(dots.body.url).toMatch(/\/_\.\.$/);
  });

  it('answers 400 naming the parameter without a file, or with text in its place', async () => {
    const none = await upload(developer, project.id, { other: 'x' });
    expect(none).toEqual({ status: 400, body: { error: 'file is missing' } });
    const text = await upload(developer, project.id, { file: 'not a file' });
    expect(text).toEqual({ status: 400, body: { error: 'file is invalid' } });
    const json = await kiln.api('POST', `/projects/${project.id}/uploads`, { token: developer.token, body: { file: { a: 1 } } });
    expect([json.status, json.body]).toEqual([400, { error: 'file is invalid' }]);
  });

  it('answers 404 to an outsider of a private project and 401 without a token', async () => {
    expect((await upload(outsider, project.id, png)).status).toBe(404);
    expect((await upload(null, project.id, png)).status).toBe(401);
  });

  it('refuses a file over max_attachment_size with 413', async () => {
    expect((await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { max_attachment_size: 1 } })).status).toBe(200);
    try {
      const big = await upload(developer, project.id, { file: { filename: 'big.bin', data: Buffer.alloc(1024 * 1024 + 1) } });
      expect(big).toEqual({ status: 413, body: { message: '413 Request Entity Too Large' } });
      expect((await upload(developer, project.id, { file: { filename: 'fits.bin', data: Buffer.alloc(1024 * 1024) } })).status).toBe(201);
    } finally {
      await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { max_attachment_size: 100 } });
    }
  });
});

describe('GET /<project>/uploads/:secret/:filename', () => {
  it('serves the file to members, at the project path and at /-/project/:id', async () => {
    const { body } = await upload(developer, project.id, png);
    const web = await signedIn(kiln, guest);
    for (const url of [`/${project.path_with_namespace}${body.url}`, body.full_path]) {
      const served = await web.get(url);
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(String(served.headers['content-security-policy'])).toContain('sandbox');
      expect(String(served.headers['content-disposition'])).toMatch(/^inline; filename="dk\.png"/);
      expect(served.rawPayload.equals(TINY_PNG)).toBe(true);
    }
  });

  it('is a 404 to a signed-in outsider of a private project and asks an anonymous visitor to sign in', async () => {
    const { body } = await upload(developer, project.id, png);
    const web = await signedIn(kiln, outsider);
    expect((await web.get(`/${project.path_with_namespace}${body.url}`)).statusCode).toBe(404);
    expect((await web.get(body.full_path)).statusCode).toBe(404);
    const anonymous = await kiln.request('GET', `/${project.path_with_namespace}${body.url}`);
    expect(anonymous.statusCode).toBe(302);
    expect(anonymous.headers.location).toMatch(/^\/users\/sign_in/);
  });

  it('serves a public project\'s files to anyone', async () => {
    const open = await kiln.createProject(owner, 'open-plans', { visibility: 'public' });
    const { body } = await upload(outsider, open.id, png);
    expect(body.url).toBeDefined();
    expect((await kiln.request('GET', `/${open.path_with_namespace}${body.url}`)).statusCode).toBe(200);
  });

  it('never serves HTML or SVG as a page: HTML downloads as octet-stream, SVG downloads as an image', async () => {
    const web = await signedIn(kiln, developer);
    const html = await upload(developer, project.id, { file: { filename: 'x.html', data: Buffer.from('<script>alert(1)</script>'), type: 'text/html' } });
    const served = await web.get(`/${project.path_with_namespace}${html.body.url}`);
    expect(served.headers['content-type']).toBe('application/octet-stream');
    expect(String(served.headers['content-disposition'])).toMatch(/^attachment;/);
    const svg = await upload(developer, project.id, { file: { filename: 'x.svg', data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>') } });
    const image = await web.get(`/${project.path_with_namespace}${svg.body.url}`);
    expect(image.headers['content-type']).toBe('image/svg+xml');
    expect(String(image.headers['content-disposition'])).toMatch(/^attachment;/);
    expect(String(image.headers['content-security-policy'])).toContain('sandbox');
  });

  it('is a 404 for another name under the same secret, or a secret of another project', async () => {
    const { body } = await upload(developer, project.id, png);
    const web = await signedIn(kiln, developer);
    expect((await web.get(`/${project.path_with_namespace}${body.url.replace('dk.png', 'other.png')}`)).statusCode).toBe(404);
    const mine = await kiln.createProject(developer, 'elsewhere', { visibility: 'public' });
    expect((await web.get(`/${mine.path_with_namespace}${body.url}`)).statusCode).toBe(404);
  });
});

describe('the Maintainers\' uploads API', () => {
  it('GET /projects/:id/uploads lists newest first with the uploader; 403 for a developer', async () => {
    const { body: last } = await upload(developer, project.id, { file: { filename: 'last.txt', data: Buffer.from('12345') } });
    const list = await kiln.api('GET', `/projects/${project.id}/uploads?per_page=1`, { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([{ id: last.id, size: 5, filename: 'last.txt', created_at: expect.stringMatching(/Z$/), uploaded_by: { id: developer.id, name: `User ${developer.username}`, username: developer.username } }]);
    expect(Number(list.headers['x-total'])).toBeGreaterThan(1);
    expect((await kiln.api('GET', `/projects/${project.id}/uploads`, { token: developer.token })).status).toBe(403);
  });

  it('downloads by id and by secret and file name; deletes by either, and the link is gone', async () => {
    const { body } = await upload(developer, project.id, png);
    const byId = await kiln.request('GET', `/api/v4/projects/${project.id}/uploads/${body.id}`, { headers: { 'private-token': owner.token } });
    expect([byId.statusCode, byId.rawPayload.equals(TINY_PNG)]).toEqual([200, true]);
    const bySecret = await kiln.request('GET', `/api/v4/projects/${project.id}${body.url}`, { headers: { 'private-token': owner.token } });
    expect(bySecret.statusCode).toBe(200);
    expect((await kiln.api('DELETE', `/projects/${project.id}/uploads/${body.id}`, { token: developer.token })).status).toBe(403);
    expect((await kiln.api('DELETE', `/projects/${project.id}/uploads/${body.id}`, { token: owner.token })).status).toBe(204);
    expect((await kiln.api('DELETE', `/projects/${project.id}/uploads/${body.id}`, { token: owner.token })).status).toBe(404);
    const web = await signedIn(kiln, owner);
    expect((await web.get(`/${project.path_with_namespace}${body.url}`)).statusCode).toBe(404);
    expect(existsSync(uploadFilePath(kiln.deps.config.uploadsPath, project.id, body.url.split('/')[2]))).toBe(false);
    const other = await upload(developer, project.id, png);
    expect((await kiln.api('DELETE', `/projects/${project.id}${other.body.url}`, { token: owner.token })).status).toBe(204);
    expect((await kiln.api('GET', `/projects/${project.id}/uploads/x`, { token: owner.token })).body).toEqual({ error: 'upload_id is invalid' });
  });
});

describe('uploads in statistics, Markdown and project deletion', () => {
  it('counts uploads_size in statistics=true', async () => {
    const counted = await kiln.createProject(owner, 'counted');
    await upload(owner, counted.id, { file: { filename: 'a.txt', data: Buffer.alloc(1000) } });
    await upload(owner, counted.id, { file: { filename: 'b.txt', data: Buffer.alloc(24) } });
    const shown = await kiln.api('GET', `/projects/${counted.id}?statistics=true`, { token: owner.token });
    expect(shown.body.statistics.uploads_size).toBe(1024);
    expect(shown.body.statistics.storage_size).toBeGreaterThanOrEqual(1024);
  });

  it('renders /uploads/ links of an issue under the project path', async () => {
    const { body } = await upload(developer, project.id, png);
    const issue = await kiln.api('POST', `/projects/${project.id}/issues`, { token: developer.token, body: { title: 'Screenshot', description: `See ${body.markdown}` } });
    const web = await signedIn(kiln, developer);
    const page = await web.get(`/${project.path_with_namespace}/-/issues/${issue.body.iid}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`src="/${project.path_with_namespace}${body.url}"`);
  });

  it('removes a deleted project\'s files with the daily orphan job', async () => {
    const doomed = await kiln.createProject(owner, 'doomed');
    await upload(owner, doomed.id, png);
    const directory = projectUploadsDirectory(kiln.deps.config.uploadsPath, doomed.id);
    expect(existsSync(directory)).toBe(true);
    expect(await pruneOrphanUploads(kiln.deps)).toBe(0);
    expect((await kiln.api('DELETE', `/projects/${doomed.id}`, { token: owner.token })).status).toBe(202);
    expect(await pruneOrphanUploads(kiln.deps)).toBe(1);
    expect(existsSync(directory)).toBe(false);
    expect(existsSync(projectUploadsDirectory(kiln.deps.config.uploadsPath, project.id))).toBe(true);
  });
});

describe('POST /<project>/uploads (the web form behind "Attach a file")', () => {
  async function webUpload(web: WebSession, fields: Parameters<typeof multipart>[0], accept = 'text/html') {
    const { payload, contentType } = await multipart(fields);
    return kiln.app.inject({ method: 'POST', url: `/${project.path_with_namespace}/uploads`, headers: { cookie: web.cookie, 'content-type': contentType, accept }, payload });
  }

  it('takes a file from the form without JavaScript and shows the Markdown to paste', async () => {
    const web = await signedIn(kiln, developer);
    const form = await web.get(`/${project.path_with_namespace}/uploads/new`);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('enctype="multipart/form-data"');
    expect(form.body).toContain('type="file" id="upload-file" name="file"');
    const answer = await webUpload(web, { authenticity_token: csrfTokenOf(form.body), ...png });
    expect(answer.statusCode).toBe(201);
    expect(answer.body).toMatch(/value="!\[dk\]\(\/uploads\/[0-9a-f]{32}\/dk\.png\)"/);
  });

  it('answers a script asking for JSON with GitLab\'s link, and refuses a post without the CSRF token', async () => {
    const web = await signedIn(kiln, developer);
    const token = csrfTokenOf((await web.get(`/${project.path_with_namespace}/uploads/new`)).body);
    const answer = await webUpload(web, { authenticity_token: token, ...png }, 'application/json');
    expect(answer.statusCode).toBe(201);
    const { link } = JSON.parse(answer.body);
    expect(link).toEqual({ alt: 'dk', url: expect.stringMatching(/^\/uploads\/[0-9a-f]{32}\/dk\.png$/), markdown: `![dk](${link.url})` });
    expect((await web.get(`/${project.path_with_namespace}${link.url}`)).statusCode).toBe(200);
    expect((await webUpload(web, png, 'application/json')).statusCode).toBe(422);
    expect((await webUpload(web, { authenticity_token: token }, 'application/json')).statusCode).toBe(400);
  });

  it('is a 404 to an outsider of a private project', async () => {
    const web = await signedIn(kiln, outsider);
    expect((await web.get(`/${project.path_with_namespace}/uploads/new`)).statusCode).toBe(404);
  });

  it('is offered in the new issue, edit issue and comment forms', async () => {
    const web = await signedIn(kiln, developer);
    const control = `data-attach="/${project.path_with_namespace}/uploads"`;
    expect((await web.get(`/${project.path_with_namespace}/-/issues/new`)).body).toContain(control);
    const issue = await kiln.api('POST', `/projects/${project.id}/issues`, { token: developer.token, body: { title: 'Attach here' } });
    expect((await web.get(`/${project.path_with_namespace}/-/issues/${issue.body.iid}`)).body).toContain(control);
    expect((await web.get(`/${project.path_with_namespace}/-/issues/${issue.body.iid}/edit`)).body).toContain(control);
  });
});
