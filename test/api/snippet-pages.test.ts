// The snippet pages (issue 38): /-/snippets and /<project>/-/snippets list, show (files highlighted,
// description as Markdown, text escaped), new and edit forms of several files, delete, raw files;
// who sees and changes what is the API's rule. Through inject.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { csrfTokenOf, WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let alice: TestUser;
let bob: TestUser;
let guest: TestUser;
let project: any;
const XSS = '<img src=x onerror=alert(1)>';

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  guest = await kiln.createUser('guest');
  project = await kiln.createProject(alice, 'app', { visibility: 'private' });
  await kiln.addMember(alice, 'projects', project.id, guest, 10);
});
afterAll(() => kiln.close());

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

/** A form post with repeated fields (the files' rows), as a browser sends it. */
async function postForm(web: WebSession, url: string, csrfFrom: string, fields: Array<[string, string]>) {
  const token = csrfTokenOf((await web.get(csrfFrom)).body);
  return kiln.app.inject({
    method: 'POST', url, headers: { cookie: web.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams([['authenticity_token', token], ...fields]).toString(),
  });
}

describe('personal snippet pages', () => {
  it('make a snippet of two files from the form, show it highlighted and escaped, edit it, delete it', async () => {
    const web = await signedIn(alice);
    const form = await web.get('/-/snippets/new');
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('name="file_path[]"');
    const created = await postForm(web, '/-/snippets', '/-/snippets/new', [
      ['title', `Tools ${XSS}`], ['description', '**bold** note'], ['visibility', 'internal'],
      ['file_path[]', 'tool.py'], ['content[]', 'def main():\n    return "<b>"\n'],
      ['file_path[]', 'notes.txt'], ['content[]', 'plain'],
      ['file_path[]', ''], ['content[]', ''],
    ]);
    expect(created.statusCode).toBe(303);
    const path = created.headers.location as string;
    expect(path).toMatch(/^\/-\/snippets\/\d+$/);
    const id = Number(path.split('/').pop());
    const api = await kiln.api('GET', `/snippets/${id}`, { token: alice.token });
    expect(api.body).toMatchObject({ title: `Tools ${XSS}`, visibility: 'internal', files: [{ path: 'tool.py' }, { path: 'notes.txt' }] });

    const shown = await web.get(path);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('Tools &lt;img src=x onerror=alert(1)&gt;');
    expect(shown.body).not.toContain(XSS);
    // The description goes through the Markdown renderer (shown plain, with its notice, when the
    // renderer's workers are busy on a loaded machine).
    expect(shown.body).toMatch(/<div class="markdown">(<p><strong>bold<\/strong> note<\/p>|<p class="markdown-notice"[^]*?<pre class="markdown-plain">\*\*bold\*\* note<\/pre>)/);
    expect(shown.body).toMatch(/<span class="hljs-keyword">def<\/span>/);
    expect(shown.body).toContain(`href="/-/snippets/${id}/raw/main/notes.txt"`);
    expect(shown.body).toContain(`href="/-/snippets/${id}/edit"`);

    const raw = await web.get(`/-/snippets/${id}/raw/main/notes.txt`);
    expect([raw.statusCode, raw.headers['content-type'], raw.body]).toEqual([200, 'text/plain; charset=utf-8', 'plain']);
    expect((await web.get(`/-/snippets/${id}/raw`)).body).toBe('def main():\n    return "<b>"\n');

    // Another signed-in user reads an internal snippet but gets no edit link and a 403 on the form.
    const other = await signedIn(bob);
    const asBob = await other.get(path);
    expect(asBob.statusCode).toBe(200);
    expect(asBob.body).not.toContain(`/-/snippets/${id}/edit`);
    expect((await other.get(`${path}/edit`)).statusCode).toBe(403);

    const edit = await web.get(`${path}/edit`);
    expect(edit.body).toContain('value="tool.py"');
    const saved = await postForm(web, path, `${path}/edit`, [['title', 'Tools'], ['visibility', 'private'], ['file_path[]', 'tool.py'], ['content[]', 'print(1)'], ['file_path[]', ''], ['content[]', '']]);
    expect([saved.statusCode, saved.headers.location]).toEqual([303, path]);
    expect((await kiln.api('GET', `/snippets/${id}`, { token: alice.token })).body).toMatchObject({ title: 'Tools', visibility: 'private', files: [{ path: 'tool.py' }] });
    expect((await other.get(path)).statusCode).toBe(404);

    const refused = await postForm(web, path, `${path}/edit`, [['title', ''], ['file_path[]', 'a'], ['content[]', 'b']]);
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('Title can’t be blank.');
    const emptyFile = await postForm(web, path, `${path}/edit`, [['title', 'T'], ['file_path[]', 'a.txt'], ['content[]', '']]);
    expect([emptyFile.statusCode, emptyFile.body.includes('The file a.txt is empty.'), emptyFile.body.includes('value="a.txt"')]).toEqual([422, true, true]);

    const listed = await web.get('/-/snippets');
    expect(listed.body).toContain(`href="${path}"`);
    const deleted = await web.post(`${path}/delete`, {}, { csrfFrom: path });
    expect([deleted.statusCode, deleted.headers.location]).toEqual([303, '/-/snippets']);
    expect((await kiln.api('GET', `/snippets/${id}`, { token: alice.token })).status).toBe(404);
  });

  it('a public snippet is shown to anonymous visitors; a private one asks them to sign in', async () => {
    const open = await kiln.apiAs(alice, 'POST', '/snippets', { title: 'Open', visibility: 'public', content: 'hello', file_name: 'hello.txt' });
    const hidden = await kiln.apiAs(alice, 'POST', '/snippets', { title: 'Hidden', visibility: 'private', content: 'secret' });
    const anonymous = new WebSession(kiln);
    expect((await anonymous.get(`/-/snippets/${open.id}`)).body).toContain('hello.txt');
    const asked = await anonymous.get(`/-/snippets/${hidden.id}`);
    expect([asked.statusCode, asked.headers.location]).toEqual([302, `/users/sign_in?return_to=${encodeURIComponent(`/-/snippets/${hidden.id}`)}`]);
  });
});

describe('project snippet pages', () => {
  it('list and show for members, form for Reporters and up, none for a Guest; the sidebar links them', async () => {
    const web = await signedIn(alice);
    const root = `/${project.path_with_namespace}/-/snippets`;
    const created = await postForm(web, root, `${root}/new`, [['title', 'Config'], ['visibility', 'private'], ['file_path[]', 'config.yml'], ['content[]', 'key: value\n']]);
    expect(created.statusCode).toBe(303);
    const path = created.headers.location as string;
    expect(path).toMatch(new RegExp(`^${root}/\\d+$`));
    const asGuest = await signedIn(guest);
    const list = await asGuest.get(root);
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(`href="${path}"`);
    expect(list.body).toContain(`href="${root}" aria-current="page"`);
    expect(list.body).not.toContain(`${root}/new`);
    expect((await asGuest.get(`${root}/new`)).statusCode).toBe(403);
    const shown = await asGuest.get(path);
    expect(shown.body).toContain('config.yml');
    expect((await asGuest.get(`${path}/raw`)).body).toBe('key: value\n');
    expect((await (await signedIn(bob)).get(path)).statusCode).toBe(404);
  });

  it('shows a project snippet\'s comments and takes one from its form', async () => {
    const snippet = (await kiln.api('POST', `/projects/${project.id}/snippets`, { token: alice.token, body: { title: 'Discussed', visibility: 'private', content: 'x' } })).body;
    const path = `/${project.path_with_namespace}/-/snippets/${snippet.id}`;
    await kiln.api('POST', `/projects/${project.id}/snippets/${snippet.id}/notes`, { token: alice.token, body: { body: `From the **API** ${XSS}` } });
    const asGuest = await signedIn(guest);
    const shown = await asGuest.get(path);
    expect(shown.body).toContain('<strong>API</strong>');
    expect(shown.body).not.toContain(XSS);
    expect(shown.body).toContain(`action="${path}/notes"`);
    const posted = await postForm(asGuest, `${path}/notes`, path, [['note', 'A *page* comment']]);
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toMatch(new RegExp(`^${path}#note_\\d+$`));
    expect((await asGuest.get(path)).body).toContain('<em>page</em>');
    const notes = (await kiln.api('GET', `/projects/${project.id}/snippets/${snippet.id}/notes`, { token: alice.token })).body;
    expect(notes.map((note: any) => note.body)).toContain('A *page* comment');
    const asBob = await signedIn(bob);
    expect((await postForm(asBob, `${path}/notes`, '/-/snippets/new', [['note', 'nope']])).statusCode).toBe(404);
  });
});
