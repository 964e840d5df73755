// Comments on a commit (issue 35): `…/repository/commits/:sha/comments` with GitLab's CommitNote
// entity, a comment on a line of the commit's diff, and the commit's discussions through the notes
// machinery, against a repository pushed over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { gitCommands, listenOnLoopback } from '../helpers/git.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { findDiffLine } from '../../src/repositories/commit-comments/diff-line.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let work: string;
let owner: TestUser;
let guest: TestUser;
let stranger: TestUser;
let project: any;
let first: string;
let second: string;
const { ok } = gitCommands(() => work);

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-commit-comments-'));
  kiln = await testKiln();
  const base = await listenOnLoopback(kiln.app);
  owner = await kiln.createUser('owner');
  guest = await kiln.createUser('guest');
  stranger = await kiln.createUser('stranger');
  project = await kiln.createProject(owner, 'notes');
  await kiln.addMember(owner, 'projects', project.id, guest, ACCESS.guest);
  const repo = join(work, 'repo');
  await ok(['init', '-q', repo]);
  writeFileSync(join(repo, 'app.txt'), 'one\ntwo\nthree\n');
  await ok(['add', '.'], repo);
  await ok(['commit', '-q', '-m', 'First'], repo);
  writeFileSync(join(repo, 'app.txt'), 'one\nTWO\nthree\nfour\n');
  await ok(['commit', '-q', '-am', 'Second'], repo);
  first = (await ok(['rev-parse', 'HEAD~1'], repo)).trim();
  second = (await ok(['rev-parse', 'HEAD'], repo)).trim();
  await ok(['push', '-q', `${base.replace('http://', `http://owner:${owner.token}@`)}/owner/notes.git`, 'main'], repo);
});
afterAll(async () => {
  await kiln?.close();
  rmSync(work, { recursive: true, force: true });
});

const comments = (sha: string) => `/projects/${project.id}/repository/commits/${sha}/comments`;
const discussions = (sha: string, suffix = '') => `/projects/${project.id}/repository/commits/${sha}/discussions${suffix}`;

describe('POST /api/v4/projects/:id/repository/commits/:sha/comments', () => {
  it('comments on the commit: GitLab\'s CommitNote with no line', async () => {
    const { status, body } = await kiln.api('POST', comments(second), { token: owner.token, body: { note: 'Looks <b>good</b>' } });
    expect(status).toBe(201);
    expect(body).toEqual({ note: 'Looks <b>good</b>', path: null, line: null, line_type: null, author: expect.objectContaining({ username: 'owner' }), created_at: expect.any(String) });
  });

  it('puts a comment on a line of the diff when the diff has it, by a branch name too', async () => {
    const { status, body } = await kiln.api('POST', comments('main'), { token: owner.token, body: { note: 'Why upper case?', path: 'app.txt', line: 2, line_type: 'new' } });
    expect(status).toBe(201);
    expect(body).toMatchObject({ note: 'Why upper case?', path: 'app.txt', line: 2, line_type: 'new' });
  });

  it('makes a plain comment when the line is not in the diff, as GitLab does', async () => {
    const { body } = await kiln.api('POST', comments(second), { token: owner.token, body: { note: 'Elsewhere', path: 'app.txt', line: 40, line_type: 'new' } });
    expect(body).toMatchObject({ note: 'Elsewhere', path: null, line: null });
  });

  it('answers 400 for a missing note or a line type GitLab does not know, 404 for an unknown commit', async () => {
    expect((await kiln.api('POST', comments(second), { token: owner.token, body: {} })).body).toEqual({ error: 'note is missing' });
    expect((await kiln.api('POST', comments(second), { token: owner.token, body: { note: 'x', line_type: 'both' } })).status).toBe(400);
    const missing = await kiln.api('POST', comments('f'.repeat(40)), { token: owner.token, body: { note: 'x' } });
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Commit Not Found' }]);
    expect((await kiln.api('POST', comments('--upload-pack=touch%20x'), { token: owner.token, body: { note: 'x' } })).status).toBe(404);
  });

  it('answers 403 to a guest of the private project, who cannot read its code, and 404 to a stranger', async () => {
    expect((await kiln.api('POST', comments(second), { token: guest.token, body: { note: 'x' } })).status).toBe(403);
    expect((await kiln.api('POST', comments(second), { token: stranger.token, body: { note: 'x' } })).status).toBe(404);
  });
});

describe('GET /api/v4/projects/:id/repository/commits/:sha/comments', () => {
  it('lists the comments of that commit only, oldest first', async () => {
    const { status, body, headers } = await kiln.api('GET', comments(second), { token: owner.token });
    expect(status).toBe(200);
    expect(body.map((note: any) => note.note)).toEqual(['Looks <b>good</b>', 'Why upper case?', 'Elsewhere']);
    expect(headers['x-total']).toBe('3');
    expect((await kiln.api('GET', comments(first), { token: owner.token })).body).toEqual([]);
  });
});

describe('the discussions of a commit', () => {
  let thread: any;

  it('lists each comment as an individual note, with the commit\'s sha and no noteable id', async () => {
    const { status, body } = await kiln.api('GET', discussions(second), { token: owner.token });
    expect(status).toBe(200);
    expect(body).toHaveLength(3);
    expect(body[0]).toMatchObject({ individual_note: true, notes: [{ body: 'Looks <b>good</b>', noteable_type: 'Commit', noteable_id: null, noteable_iid: null, commit_id: second }] });
  });

  it('starts a thread, replies in it, and reads it back', async () => {
    const started = await kiln.api('POST', discussions(second), { token: owner.token, body: { body: 'A thread' } });
    expect(started.status).toBe(201);
    thread = started.body;
    expect(thread).toMatchObject({ individual_note: false, notes: [{ body: 'A thread', type: 'DiscussionNote', commit_id: second }] });
    const reply = await kiln.api('POST', discussions(second, `/${thread.id}/notes`), { token: owner.token, body: { body: 'A reply' } });
    expect(reply.status).toBe(201);
    const read = await kiln.api('GET', discussions(second, `/${thread.id}`), { token: owner.token });
    expect(read.body.notes.map((note: any) => note.body)).toEqual(['A thread', 'A reply']);
  });

  it('a commit nobody commented on has no discussions; an unknown one is 404', async () => {
    expect((await kiln.api('GET', discussions(first), { token: owner.token })).body).toEqual([]);
    expect((await kiln.api('GET', discussions('f'.repeat(40)), { token: owner.token })).status).toBe(404);
  });

  it('refuses a diff position by name rather than dropping it', async () => {
    const { status, body } = await kiln.api('POST', discussions(second), { token: owner.token, body: { body: 'x', position: { position_type: 'text' } } });
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toContain('position');
  });
});

describe('which line of a diff a comment names', () => {
  const patch = '@@ -1,3 +1,4 @@\n one\n-two\n+TWO\n three\n+four\n';
  it.each<[number, string | null, object | null]>([
    [2, 'new', { oldLine: 3, newLine: 2, type: 'new' }],
    [2, 'old', { oldLine: 2, newLine: 2, type: 'old' }],
    [1, null, { oldLine: 1, newLine: 1, type: null }],
    [4, 'new', { oldLine: 4, newLine: 4, type: 'new' }],
    [3, 'new', null],
  ])('line %s of type %s', (line, type, expected) => {
    expect(findDiffLine(patch, line, type)).toEqual(expected);
  });
});

describe('comments on the commit page', () => {
  it('shows the comments as Markdown with their line, escaped, and adds one from the form', async () => {
    const web = new WebSession(kiln);
    await web.signIn(owner.username, owner.password);
    const page = `/owner/notes/-/commit/${second}`;
    const before = (await web.get(page)).body;
    expect(before).toContain('id="commit-comments"');
    expect(before).not.toContain('<b>good</b>');
    expect(before).toContain('on <code>app.txt:2</code>');
    expect(before).toContain('A reply');
    const posted = await web.post(`${page}/comments`, { note: 'From the <script>page</script>' }, { csrfFrom: page });
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toMatch(new RegExp(`^${page}#note_\\d+$`));
    const after = (await web.get(page)).body;
    expect(after).not.toContain('<script>page</script>');
    expect(after).toContain('From the');
    expect((await kiln.api('GET', comments(second), { token: owner.token })).body.at(-1).note).toBe('From the <script>page</script>');
  });

  it('refuses the page and the post to a guest, who cannot read the code of the private project', async () => {
    const web = new WebSession(kiln);
    await web.signIn(guest.username, guest.password);
    expect((await web.get(`/owner/notes/-/commit/${second}`)).statusCode).toBe(403);
    const posted = await web.post(`/owner/notes/-/commit/${second}/comments`, { note: 'x' }, { csrfFrom: '/owner/notes' });
    expect(posted.statusCode).toBe(403);
  });
});
