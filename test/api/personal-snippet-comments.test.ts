// Comments on personal snippets (issue 38): GitLab has them on the snippet's page only (no notes API).
// Whoever reads the snippet and is signed in comments; the comment's author, the snippet's author and
// administrators edit and delete it; the note has no project, so no activity event and no project
// hook; the snippet's participants are mailed as GitLab's new_note mails (the outbox, read directly).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let admin: TestUser;
const XSS = '<img src=x onerror=alert(1)>';

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  carol = await kiln.createUser('carol');
  admin = await kiln.createUser('boss', { admin: true });
});
afterAll(() => kiln.close());

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

async function snippet(visibility: string, title = 'Shared'): Promise<{ id: number; path: string }> {
  const created = await kiln.apiAs(alice, 'POST', '/snippets', { title, visibility, content: 'x', file_name: 'x.txt' });
  return { id: created.id, path: `/-/snippets/${created.id}` };
}

const notesOf = (id: number) => kiln.deps.db.selectFrom('notes').selectAll().where('noteable_type', '=', 'Snippet').where('noteable_id', '=', id).orderBy('id').execute();
const noteIdOf = (location: string) => Number(/#note_(\d+)$/.exec(location)![1]);

async function mailsTo(address: string, since: number) {
  await kiln.worker.drain();
  return kiln.deps.db.selectFrom('email_outbox').selectAll().where('to_address', '=', address).where('id', '>', since).execute();
}
const lastMailId = async () => (await kiln.worker.drain(), Number((await kiln.deps.db.selectFrom('email_outbox').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst())?.id ?? 0));

describe('POST /-/snippets/:id/notes', () => {
  it('as a signed-in reader: the comment is listed oldest first as Markdown, with no project and no activity event', async () => {
    const { id, path } = await snippet('internal');
    const events = await kiln.deps.db.selectFrom('events').select('id').execute();
    const web = await signedIn(bob);
    const page = await web.get(path);
    expect(page.body).toContain(`action="${path}/notes"`);
    const first = await web.post(`${path}/notes`, { note: `A **first** ${XSS}` }, { csrfFrom: path });
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toMatch(new RegExp(`^${path}#note_\\d+$`));
    const second = await (await signedIn(carol)).post(`${path}/notes`, { note: 'second' }, { csrfFrom: path });
    expect(second.statusCode).toBe(303);
    const notes = await notesOf(id);
    expect(notes.map((note) => [note.body, note.project_id, Number(note.author_id)])).toEqual([[`A **first** ${XSS}`, null, bob.id], ['second', null, carol.id]]);
    expect((await kiln.deps.db.selectFrom('events').select('id').execute()).length).toBe(events.length);
    const shown = (await web.get(path)).body;
    expect(shown).toContain('<strong>first</strong>');
    expect(shown).not.toContain(XSS);
    expect(shown.indexOf(`note_${notes[0].id}`)).toBeLessThan(shown.indexOf(`note_${notes[1].id}`));
    // Anonymous visitors of a public snippet read the comments and are asked to sign in to comment.
    const open = await snippet('public');
    await web.post(`${open.path}/notes`, { note: 'public words' }, { csrfFrom: open.path });
    const anonymous = (await new WebSession(kiln).get(open.path)).body;
    expect(anonymous).toContain('public words');
    expect(anonymous).not.toContain(`action="${open.path}/notes"`);
    expect(anonymous).toContain('to comment.');
  });

  it('as a user who may not read the snippet: 404, and nothing is written', async () => {
    const { id, path } = await snippet('private');
    const web = await signedIn(bob);
    const refused = await web.post(`${path}/notes`, { note: 'sneaky' }, { csrfFrom: '/-/snippets/new' });
    expect(refused.statusCode).toBe(404);
    expect(await notesOf(id)).toEqual([]);
  });

  it('without the CSRF token: refused, nothing written', async () => {
    const { id, path } = await snippet('internal');
    const web = await signedIn(bob);
    const refused = await web.post(`${path}/notes`, { note: 'forged', authenticity_token: 'wrong' });
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect(await notesOf(id)).toEqual([]);
  });

  it('mails the snippet\'s author and the mentioned readers, not the commenter nor those who may not read it', async () => {
    const { id } = await snippet('private', 'Secret plan');
    const since = await lastMailId();
    // The snippet's author mentions carol, who may not read a private snippet of alice's.
    const web = await signedIn(alice);
    await web.post(`/-/snippets/${id}/notes`, { note: 'note to self, @carol' }, { csrfFrom: `/-/snippets/${id}` });
    expect(await mailsTo('alice@example.com', since)).toEqual([]);
    expect(await mailsTo('carol@example.com', since)).toEqual([]);

    const open = await snippet('internal', 'Open plan');
    const before = await lastMailId();
    const asBob = await signedIn(bob);
    const posted = await asBob.post(`${open.path}/notes`, { note: 'Looks good, @carol' }, { csrfFrom: open.path });
    const noteId = noteIdOf(posted.headers.location as string);
    const [toAlice] = await mailsTo('alice@example.com', before);
    expect(toAlice.subject).toBe(`Re: Open plan ($${open.id})`);
    expect(toAlice.message_id).toBe(`note_${noteId}@kiln.test`);
    const headers = JSON.parse(toAlice.headers);
    expect(headers['X-GitLab-PersonalSnippet-ID']).toBe(String(open.id));
    expect(headers['X-GitLab-Project']).toBeUndefined();
    expect(toAlice.text_body).toContain(`${kiln.deps.config.baseUrl}${open.path}#note_${noteId}`);
    expect(toAlice.text_body).toContain('Looks good, @carol');
    const [toCarol] = await mailsTo('carol@example.com', before);
    expect(JSON.parse(toCarol.headers)['X-GitLab-NotificationReason']).toBe('mentioned');
    expect(await mailsTo('bob@example.com', before)).toEqual([]);

    // An author whose notifications are disabled gets none.
    expect((await kiln.api('PUT', '/notification_settings', { token: alice.token, body: { level: 'disabled' } })).status).toBe(200);
    const later = await lastMailId();
    await asBob.post(`${open.path}/notes`, { note: 'Again' }, { csrfFrom: open.path });
    expect(await mailsTo('alice@example.com', later)).toEqual([]);
    expect((await kiln.api('PUT', '/notification_settings', { token: alice.token, body: { level: 'participating' } })).status).toBe(200);
  });
});

describe('POST /-/snippets/:id/notes/:note_id (edit) and …/delete', () => {
  it('the comment\'s author edits it; another reader may not; the snippet\'s author and an administrator delete it', async () => {
    const { id, path } = await snippet('internal');
    const asBob = await signedIn(bob);
    const noteId = noteIdOf((await asBob.post(`${path}/notes`, { note: 'draft' }, { csrfFrom: path })).headers.location as string);
    const other = (await asBob.post(`${path}/notes`, { note: 'other' }, { csrfFrom: path })).headers.location as string;
    expect((await asBob.get(path)).body).toContain(`action="${path}/notes/${noteId}"`);

    const edited = await asBob.post(`${path}/notes/${noteId}`, { note: 'final' }, { csrfFrom: path });
    expect([edited.statusCode, edited.headers.location]).toEqual([303, `${path}#note_${noteId}`]);
    expect((await notesOf(id)).map((note) => note.body)).toEqual(['final', 'other']);

    const asCarol = await signedIn(carol);
    expect((await asCarol.get(path)).body).not.toContain(`action="${path}/notes/${noteId}"`);
    expect((await asCarol.post(`${path}/notes/${noteId}`, { note: 'hijack' }, { csrfFrom: path })).statusCode).toBe(403);
    expect((await asCarol.post(`${path}/notes/${noteId}/delete`, {}, { csrfFrom: path })).statusCode).toBe(403);
    expect((await asCarol.post(`${path}/notes/999999/delete`, {}, { csrfFrom: path })).statusCode).toBe(404);

    expect((await (await signedIn(alice)).post(`${path}/notes/${noteId}/delete`, {}, { csrfFrom: path })).statusCode).toBe(303);
    expect((await (await signedIn(admin)).post(`${path}/notes/${noteIdOf(other)}/delete`, {}, { csrfFrom: path })).statusCode).toBe(303);
    expect(await notesOf(id)).toEqual([]);
  });

  it('a note of another snippet is not found through this one', async () => {
    const a = await snippet('internal');
    const b = await snippet('internal');
    const asBob = await signedIn(bob);
    const noteId = noteIdOf((await asBob.post(`${a.path}/notes`, { note: 'on a' }, { csrfFrom: a.path })).headers.location as string);
    expect((await asBob.post(`${b.path}/notes/${noteId}`, { note: 'moved' }, { csrfFrom: b.path })).statusCode).toBe(404);
  });

  it('deleting the snippet deletes its comments; a deleted comment\'s id is not given again', async () => {
    const { id, path } = await snippet('internal');
    const asBob = await signedIn(bob);
    const noteId = noteIdOf((await asBob.post(`${path}/notes`, { note: 'last' }, { csrfFrom: path })).headers.location as string);
    expect((await asBob.post(`${path}/notes/${noteId}/delete`, {}, { csrfFrom: path })).statusCode).toBe(303);
    const next = noteIdOf((await asBob.post(`${path}/notes`, { note: 'next' }, { csrfFrom: path })).headers.location as string);
    expect(next).toBeGreaterThan(noteId);
    expect((await kiln.api('DELETE', `/snippets/${id}`, { token: alice.token })).status).toBe(204);
    expect(await notesOf(id)).toEqual([]);
  });
});
