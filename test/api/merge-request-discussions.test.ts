// Comments and threads on merge requests (issue 34, review): notes and discussions through the notes
// machinery of issues, diff notes with GitLab's `position` validated against the merge request's
// versions, resolvable threads and what they block, on SQLite and PostgreSQL.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';
import { branchWith, create, openMergeRequest, seedRepository } from './merge-requests-helpers.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let mr: any;

const lines = (count: number, prefix = 'line') => Array.from({ length: count }, (_, index) => `${prefix} ${index + 1}\n`).join('');
const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  await seedRepository(kiln, w.owner, w.project.id);
  await branchWith(kiln, w.owner, w.project.id, 'main', [create('app.txt', lines(20))]);
  await branchWith(kiln, w.developer, w.project.id, 'feature', [
    { action: 'update', file_path: 'app.txt', content: lines(20).replace('line 10\n', 'line ten\n') },
    create('new.txt', 'alpha\nbeta\ngamma\n'),
  ]);
  mr = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'feature', title: 'Change line 10' });
});

afterAll(async () => {
  await kiln?.close();
});

const base = () => `/projects/${w.project.id}/merge_requests/${mr.iid}`;
const refs = () => ({ base_sha: mr.diff_refs.base_sha, start_sha: mr.diff_refs.start_sha, head_sha: mr.diff_refs.head_sha });

describe('POST /projects/:id/merge_requests/:merge_request_iid/notes', () => {
  it('as a Reporter comments (201) and the merge request counts it in user_notes_count', async () => {
    const note = await kiln.apiAs(w.reporter, 'POST', `${base()}/notes`, { body: 'Looks good' });
    expect(note).toMatchObject({ type: null, body: 'Looks good', noteable_type: 'MergeRequest', noteable_iid: mr.iid, resolvable: false, system: false, author: { username: w.reporter.username } });
    expect(note).not.toHaveProperty('resolved');
    const read = await kiln.apiAs(w.reporter, 'GET', base());
    expect(read.user_notes_count).toBe(1);
    const event = await kiln.deps.db.selectFrom('events').selectAll().where('action', '=', 'commented').where('target_id', '=', note.id).executeTakeFirstOrThrow();
    expect(event.target_type).toBe('Note');
  });

  it('lists the notes newest first by default, oldest first with sort=asc, by updated_at on request', async () => {
    await kiln.apiAs(w.developer, 'POST', `${base()}/notes`, { body: 'Second' });
    const desc = await kiln.api('GET', `${base()}/notes`, { token: w.reporter.token });
    expect(desc.body.filter((note: any) => !note.system).map((note: any) => note.body)).toEqual(['Second', 'Looks good']);
    const asc = await kiln.api('GET', `${base()}/notes`, { token: w.reporter.token, query: { sort: 'asc', order_by: 'updated_at' } });
    expect(asc.body.filter((note: any) => !note.system).map((note: any) => note.body)).toEqual(['Looks good', 'Second']);
    expect((await kiln.api('GET', `${base()}/notes`, { token: w.reporter.token, query: { order_by: 'title' } })).status).toBe(400);
  });

  it('edits (author) and deletes (Maintainer) a note; a Reporter may not edit another\'s', async () => {
    const note = await kiln.apiAs(w.developer, 'POST', `${base()}/notes`, { body: 'typo' });
    expect((await kiln.api('PUT', `${base()}/notes/${note.id}`, { token: w.reporter.token, body: { body: 'no' } })).status).toBe(403);
    expect(await kiln.apiAs(w.developer, 'PUT', `${base()}/notes/${note.id}`, { body: 'fixed' })).toMatchObject({ body: 'fixed' });
    expect((await kiln.api('DELETE', `${base()}/notes/${note.id}`, { token: w.maintainer.token })).status).toBe(204);
    expect((await kiln.api('GET', `${base()}/notes/${note.id}`, { token: w.reporter.token })).status).toBe(404);
  });

  it('is 404 to a Guest of the private project and to strangers, 404 for an unknown merge request', async () => {
    expect((await kiln.api('POST', `${base()}/notes`, { token: w.guest.token, body: { body: 'x' } })).body).toEqual({ message: '404 Merge Request Not Found' });
    expect((await kiln.api('GET', `${base()}/notes`, { token: w.stranger.token })).status).toBe(404);
    expect((await kiln.api('GET', `/projects/${w.project.id}/merge_requests/999/notes`, { token: w.reporter.token })).body).toEqual({ message: '404 Merge Request Not Found' });
  });

  it('answers 400 for a missing or blank body', async () => {
    expect((await kiln.api('POST', `${base()}/notes`, { token: w.developer.token, body: {} })).body).toEqual({ error: 'body is missing' });
    expect((await kiln.api('POST', `${base()}/notes`, { token: w.developer.token, body: { body: '  ' } })).status).toBe(400);
  });
});

describe('POST /projects/:id/merge_requests/:merge_request_iid/discussions', () => {
  it('starts a resolvable thread (DiscussionNote) with a DiscussionNote event', async () => {
    const thread = await kiln.apiAs(w.reporter, 'POST', `${base()}/discussions`, { body: 'Question?' });
    expect(thread).toMatchObject({ individual_note: false, notes: [{ type: 'DiscussionNote', resolvable: true, resolved: false, resolved_by: null, resolved_at: null }] });
    const event = await kiln.deps.db.selectFrom('events').selectAll().where('action', '=', 'commented').where('target_id', '=', thread.notes[0].id).executeTakeFirstOrThrow();
    expect(event.target_type).toBe('DiscussionNote');
  });

  it('starts a diff thread on an added line: a DiffNote with its position, line code and original position', async () => {
    const position = { ...refs(), position_type: 'text', old_path: 'app.txt', new_path: 'app.txt', new_line: 10 };
    const thread = await kiln.apiAs(w.reporter, 'POST', `${base()}/discussions`, { body: 'Why ten?', position });
    const [note] = thread.notes;
    expect(note).toMatchObject({ type: 'DiffNote', resolvable: true, resolved: false, commit_id: null, suggestions: [] });
    expect(note.position).toEqual({ ...refs(), old_path: 'app.txt', new_path: 'app.txt', position_type: 'text', old_line: null, new_line: 10, line_range: null, ignore_whitespace_change: false });
    const row = await kiln.deps.db.selectFrom('notes').selectAll().where('id', '=', note.id).executeTakeFirstOrThrow();
    // The added line 10 follows removed line 10: GitLab's line code counts both sides (old 11, new 10).
    expect(row.line_code).toBe(`${sha1('app.txt')}_11_10`);
    expect(JSON.parse(row.original_position!)).toEqual(note.position);
    const event = await kiln.deps.db.selectFrom('events').selectAll().where('action', '=', 'commented').where('target_id', '=', note.id).executeTakeFirstOrThrow();
    expect(event.target_type).toBe('DiffNote');
  });

  it('accepts a removed line, an unchanged line in a hunk and one outside every hunk, a multi-line range, and a new file by its new path', async () => {
    const post = (position: Record<string, unknown>) => kiln.api('POST', `${base()}/discussions`, { token: w.developer.token, body: { body: 'here', position: { ...refs(), position_type: 'text', ...position } } });
    expect((await post({ old_path: 'app.txt', new_path: 'app.txt', old_line: 10 })).status).toBe(201);
    expect((await post({ old_path: 'app.txt', new_path: 'app.txt', old_line: 9, new_line: 9 })).status).toBe(201);
    expect((await post({ old_path: 'app.txt', new_path: 'app.txt', old_line: 18, new_line: 18 })).status).toBe(201);
    const range = await post({
      old_path: 'app.txt', new_path: 'app.txt', new_line: 10,
      line_range: { start: { line_code: `${sha1('app.txt')}_9_9`, type: null }, end: { line_code: `${sha1('app.txt')}_11_10`, type: 'new' } },
    });
    expect(range.status, JSON.stringify(range.body)).toBe(201);
    expect(range.body.notes[0].position.line_range).toEqual({
      start: { line_code: `${sha1('app.txt')}_9_9`, type: null, old_line: 9, new_line: 9 },
      end: { line_code: `${sha1('app.txt')}_11_10`, type: 'new', old_line: null, new_line: 10 },
    });
    const created = await post({ new_path: 'new.txt', new_line: 2 });
    expect(created.status).toBe(201);
    expect(created.body.notes[0].position).toMatchObject({ old_path: 'new.txt', new_path: 'new.txt', new_line: 2 });
  });

  it('takes the position as form fields (position[base_sha]=…) too', async () => {
    const form = { body: 'form', 'position[base_sha]': refs().base_sha, 'position[start_sha]': refs().start_sha, 'position[head_sha]': refs().head_sha, 'position[position_type]': 'text', 'position[new_path]': 'new.txt', 'position[new_line]': '3' };
    const response = await kiln.api('POST', `${base()}/discussions`, { token: w.developer.token, form });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.notes[0].position.new_line).toBe(3);
  });

  it('refuses positions outside the diff with 400 naming what is wrong, never 500', async () => {
    const post = async (position: unknown) => (await kiln.api('POST', `${base()}/discussions`, { token: w.developer.token, body: { body: 'x', position } }));
    const text = { ...refs(), position_type: 'text', old_path: 'app.txt', new_path: 'app.txt' };
    const lineCode = `Note {:line_code=>["can't be blank", "must be a valid line code"]}`;
    expect((await post({ ...text, new_line: 3 })).body).toEqual({ message: `400 Bad request - ${lineCode}` });
    expect((await post({ ...text, new_line: 500 })).body).toEqual({ message: `400 Bad request - ${lineCode}` });
    expect((await post({ ...text, old_line: 3, new_line: 4 })).body).toEqual({ message: `400 Bad request - ${lineCode}` });
    expect((await post({ ...text, old_path: 'README.md', new_path: 'README.md', new_line: 1 })).body).toEqual({ message: `400 Bad request - ${lineCode}` });
    expect((await post({ ...text })).body).toEqual({ message: `400 Bad request - Note {:line_code=>["can't be blank", "must be a valid line code"], :position=>["is incomplete"]}` });
    expect((await post({ ...text, head_sha: 'f'.repeat(40), new_line: 10 })).body.message).toMatch(/^400 Bad request - Note \{:position=>\["does not match a version/);
    expect((await post({ ...text, new_line: 10, line_range: { start: { line_code: `${sha1('app.txt')}_1_99` }, end: { line_code: `${sha1('app.txt')}_11_10` } } })).body.message).toMatch(/^400 Bad request - Note \{:line_range=>/);
    expect((await post({ position_type: 'text' })).body).toEqual({ error: 'position[base_sha] is missing, position[start_sha] is missing, position[head_sha] is missing' });
    expect((await post({ ...text, head_sha: 'abc', new_line: 'ten' })).body).toEqual({ error: 'position[head_sha] is invalid, position[new_line] is invalid' });
    expect((await post({ ...text, position_type: 'video' })).body).toEqual({ error: 'position[position_type] does not have a valid value' });
    expect((await post('here')).body).toEqual({ error: 'position is invalid' });
    expect((await post({ ...text, new_line: 10, line_range: 'all' })).body).toEqual({ error: 'position[line_range] is invalid' });
    expect((await post({ ...text, new_path: 'x'.repeat(5000), new_line: 1 })).body).toEqual({ error: 'position[new_path] is invalid' });
    expect((await post({ ...text, new_line: 10, commit_id: 'nope' })).status).toBe(201);
    const commit = await kiln.api('POST', `${base()}/discussions`, { token: w.developer.token, body: { body: 'x', commit_id: 'nope', position: { ...text, new_line: 10 } } });
    expect(commit.body).toEqual({ error: 'commit_id is invalid' });
  });

  it('replies in a diff thread with a DiffNote at its position', async () => {
    const thread = await kiln.apiAs(w.developer, 'POST', `${base()}/discussions`, { body: 'first', position: { ...refs(), position_type: 'text', new_path: 'new.txt', new_line: 1 } });
    const reply = await kiln.apiAs(w.reporter, 'POST', `${base()}/discussions/${thread.id}/notes`, { body: 'answer' });
    expect(reply).toMatchObject({ type: 'DiffNote', position: thread.notes[0].position, resolvable: true });
    const read = await kiln.apiAs(w.reporter, 'GET', `${base()}/discussions/${thread.id}`);
    expect(read.notes.map((note: any) => note.body)).toEqual(['first', 'answer']);
  });
});

describe('PUT /projects/:id/merge_requests/:merge_request_iid/discussions/:discussion_id', () => {
  it('resolves a thread for the author of the merge request and Developers, 403 for a Reporter, and unresolves it', async () => {
    const thread = await kiln.apiAs(w.reporter, 'POST', `${base()}/discussions`, { body: 'Resolve me' });
    expect((await kiln.api('PUT', `${base()}/discussions/${thread.id}`, { token: w.reporter.token, body: { resolved: true } })).status).toBe(403);
    const resolved = await kiln.apiAs(w.developer, 'PUT', `${base()}/discussions/${thread.id}`, { resolved: true });
    expect(resolved.notes[0]).toMatchObject({ resolved: true, resolved_by: { username: w.developer.username } });
    expect(resolved.notes[0].resolved_at).toMatch(/Z$/);
    const again = await kiln.apiAs(w.maintainer, 'PUT', `${base()}/discussions/${thread.id}`, { resolved: 'false' });
    expect(again.notes[0]).toMatchObject({ resolved: false, resolved_by: null, resolved_at: null });
    expect((await kiln.api('PUT', `${base()}/discussions/${thread.id}`, { token: w.developer.token, body: {} })).body).toEqual({ error: 'resolved is missing' });
    expect((await kiln.api('PUT', `${base()}/discussions/${thread.id}`, { token: w.developer.token, body: { resolved: 'maybe' } })).body).toEqual({ error: 'resolved is invalid' });
    expect((await kiln.api('PUT', `${base()}/discussions/${'0'.repeat(40)}`, { token: w.developer.token, body: { resolved: true } })).body).toEqual({ message: '404 Discussion Not Found' });
  });

  it('refuses to resolve an individual note (not resolvable): 403 on the thread, 400 on the note', async () => {
    const note = await kiln.apiAs(w.developer, 'POST', `${base()}/notes`, { body: 'plain' });
    const discussions = await kiln.apiAs(w.developer, 'GET', `${base()}/discussions?per_page=100`);
    const discussion = discussions.find((entry: any) => entry.notes[0].id === note.id);
    expect(discussion.individual_note).toBe(true);
    expect((await kiln.api('PUT', `${base()}/discussions/${discussion.id}`, { token: w.developer.token, body: { resolved: true } })).status).toBe(403);
    expect((await kiln.api('PUT', `${base()}/discussions/${discussion.id}/notes/${note.id}`, { token: w.developer.token, body: { resolved: true } })).body).toEqual({ message: '400 Bad request - Note is not resolvable' });
  });

  it('resolves one note of a thread for its own author', async () => {
    const thread = await kiln.apiAs(w.reporter, 'POST', `${base()}/discussions`, { body: 'mine' });
    const note = await kiln.apiAs(w.reporter, 'PUT', `${base()}/discussions/${thread.id}/notes/${thread.notes[0].id}`, { resolved: true });
    expect(note).toMatchObject({ resolved: true, resolved_by: { username: w.reporter.username } });
    expect((await kiln.api('PUT', `${base()}/discussions/${thread.id}/notes/${thread.notes[0].id}`, { token: w.reporter.token, body: { resolved: true, body: 'x' } })).body).toEqual({ error: 'body, resolved are mutually exclusive' });
  });

  it('blocks merging while threads are open when the project requires it, and notes when all are resolved', async () => {
    await kiln.deps.db.updateTable('projects').set({ only_allow_merge_if_all_discussions_are_resolved: 1 }).where('id', '=', w.project.id).execute();
    await kiln.worker.drain();
    const blocked = await kiln.apiAs(w.developer, 'GET', base());
    expect(blocked).toMatchObject({ blocking_discussions_resolved: false, detailed_merge_status: 'discussions_not_resolved' });
    const discussions = await kiln.apiAs(w.developer, 'GET', `${base()}/discussions?per_page=100`);
    for (const discussion of discussions) {
      if (discussion.notes.some((note: any) => note.resolvable && !note.resolved)) await kiln.apiAs(w.developer, 'PUT', `${base()}/discussions/${discussion.id}`, { resolved: true });
    }
    const open = await kiln.apiAs(w.developer, 'GET', base());
    expect(open.blocking_discussions_resolved).toBe(true);
    expect(open.detailed_merge_status).not.toBe('discussions_not_resolved');
    const system = await kiln.deps.db.selectFrom('notes').select('body').where('noteable_type', '=', 'MergeRequest').where('system', '=', 1).where('body', '=', 'resolved all threads').execute();
    expect(system).toHaveLength(1);
    await kiln.deps.db.updateTable('projects').set({ only_allow_merge_if_all_discussions_are_resolved: 0 }).where('id', '=', w.project.id).execute();
  });
});
