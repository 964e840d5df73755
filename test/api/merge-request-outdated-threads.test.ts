// Diff threads across pushes (issue 34, review): after a push records a new version, a thread whose
// line the push left alone moves to its new numbers and stays current; one whose line changed is
// kept, outdated, with GitLab's system note in it (and resolved by the pusher when the project says
// so). On SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';
import { branchWith, create, openMergeRequest, seedRepository, update } from './merge-requests-helpers.js';
import { diffThreadsOf } from '../../src/merge-requests/review/diff-threads.js';

let kiln: TestKiln;
let w: RepositoryWorld;

const numbered = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}`);
const text = (lines: string[]) => lines.map((line) => `${line}\n`).join('');

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  await seedRepository(kiln, w.owner, w.project.id);
  await branchWith(kiln, w.owner, w.project.id, 'main', [create('app.txt', text(numbered(20)))]);
});

afterAll(async () => {
  await kiln?.close();
});

async function thread(mr: any, position: Record<string, unknown>, body = 'comment') {
  const refs = { base_sha: mr.diff_refs.base_sha, start_sha: mr.diff_refs.start_sha, head_sha: mr.diff_refs.head_sha };
  return kiln.apiAs(w.reporter, 'POST', `/projects/${w.project.id}/merge_requests/${mr.iid}/discussions`, { body, position: { ...refs, position_type: 'text', old_path: 'app.txt', new_path: 'app.txt', ...position } });
}

describe('a push to the source branch of a merge request with diff threads', () => {
  it('keeps a thread on a changed line as outdated with a system note, and moves the others forward', async () => {
    const first = numbered(20);
    first[9] = 'line ten';
    first[14] = 'line fifteen';
    await branchWith(kiln, w.developer, w.project.id, 'feature', [update('app.txt', text(first))]);
    const mr = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'feature' });
    const changed = await thread(mr, { new_line: 10 }, 'ten?');
    const kept = await thread(mr, { new_line: 15 }, 'fifteen?');
    const context = await thread(mr, { old_line: 3, new_line: 3 }, 'three?');

    // The push changes line 10 again and puts two lines on top: line 15 is now 17, line 3 is 5.
    const second = ['top 1', 'top 2', ...first];
    second[11] = 'line TEN';
    await kiln.apiAs(w.developer, 'PUT', `/projects/${w.project.id}/repository/files/app.txt`, { branch: 'feature', content: text(second), commit_message: 'again' });
    await kiln.worker.drain();

    const current = await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/merge_requests/${mr.iid}`);
    expect(current.diff_refs.head_sha).not.toBe(mr.diff_refs.head_sha);
    const refs = (of: any) => ({ base_sha: of.diff_refs.base_sha, start_sha: of.diff_refs.start_sha, head_sha: of.diff_refs.head_sha });

    const read = async (id: string) => kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/merge_requests/${mr.iid}/discussions/${id}`);
    const outdated = await read(changed.id);
    expect(outdated.notes[0].position).toEqual(changed.notes[0].position);
    expect(outdated.notes).toHaveLength(2);
    expect(outdated.notes[1]).toMatchObject({ system: true, type: 'DiffNote', author: { username: w.developer.username } });
    expect(outdated.notes[1].body).toMatch(new RegExp(`^changed this line in \\[version 2 of the diff\\]\\(http://kiln.test/.+/-/merge_requests/${mr.iid}/diffs\\?diff_id=\\d+#[0-9a-f]{40}_\\d+_\\d+\\)$`));

    const moved = await read(kept.id);
    expect(moved.notes[0].position).toMatchObject({ ...refs(current), old_path: 'app.txt', new_path: 'app.txt', old_line: null, new_line: 17 });
    expect(moved.notes).toHaveLength(1);
    const unchanged = await read(context.id);
    expect(unchanged.notes[0].position).toMatchObject({ ...refs(current), old_line: 3, new_line: 5 });

    const row = await kiln.deps.db.selectFrom('notes').selectAll().where('id', '=', kept.notes[0].id).executeTakeFirstOrThrow();
    expect(JSON.parse(row.original_position!)).toMatchObject({ ...refs(mr), new_line: 15 });
    expect(JSON.parse(row.position!)).toMatchObject({ new_line: 17 });
    expect(row.line_code).toMatch(/_\d+_17$/);
    const changedRow = await kiln.deps.db.selectFrom('notes').selectAll().where('id', '=', changed.notes[0].id).executeTakeFirstOrThrow();
    expect(JSON.parse(changedRow.change_position!)).toMatchObject({ ...refs(current), new_line: null, old_line: 10 });

    const mrRow = await kiln.deps.db.selectFrom('merge_requests').selectAll().where('id', '=', mr.id).executeTakeFirstOrThrow();
    const threads = await diffThreadsOf(kiln.deps, mrRow);
    expect(Object.fromEntries(threads.map((entry) => [entry.discussionId, entry.active]))).toEqual({ [changed.id]: false, [kept.id]: true, [context.id]: true });

    // Tracing again (a repeated job) changes nothing.
    const { traceDiffThreads } = await import('../../src/merge-requests/review/trace-diff-threads.js');
    await traceDiffThreads(kiln.deps, mr.id, w.developer.id);
    expect((await read(changed.id)).notes).toHaveLength(2);
    expect((await read(kept.id)).notes[0].position.new_line).toBe(17);

    // A reply to the moved thread is a diff note at its new position.
    const reply = await kiln.apiAs(w.developer, 'POST', `/projects/${w.project.id}/merge_requests/${mr.iid}/discussions/${kept.id}/notes`, { body: 'ok' });
    expect(reply.position).toMatchObject({ new_line: 17 });
  });

  it('with resolve_outdated_diff_discussions resolves the outdated thread as the pusher, and then all threads are resolved', async () => {
    await kiln.deps.db.updateTable('projects').set({ resolve_outdated_diff_discussions: 1 }).where('id', '=', w.project.id).execute();
    const lines = numbered(20);
    lines[4] = 'line five';
    await branchWith(kiln, w.developer, w.project.id, 'other', [update('app.txt', text(lines))]);
    const mr = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'other' });
    const changed = await thread(mr, { new_line: 5 }, 'five?');
    lines[4] = 'line FIVE';
    await kiln.apiAs(w.developer, 'PUT', `/projects/${w.project.id}/repository/files/app.txt`, { branch: 'other', content: text(lines), commit_message: 'five' });
    await kiln.worker.drain();
    const read = await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/merge_requests/${mr.iid}/discussions/${changed.id}`);
    expect(read.notes[0]).toMatchObject({ resolved: true, resolved_by: { username: w.developer.username } });
    const notes = await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/merge_requests/${mr.iid}/notes?per_page=100`);
    expect(notes.map((note: any) => note.body)).toContain('resolved all threads');
    await kiln.deps.db.updateTable('projects').set({ resolve_outdated_diff_discussions: 0 }).where('id', '=', w.project.id).execute();
  });

  it('starts a thread on an older version as GitLab does: traced to the latest one, or outdated from the start', async () => {
    const lines = numbered(20);
    lines[1] = 'line two';
    lines[17] = 'line eighteen';
    await branchWith(kiln, w.developer, w.project.id, 'third', [update('app.txt', text(lines))]);
    const v1 = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'third' });
    lines[1] = 'line TWO';
    await kiln.apiAs(w.developer, 'PUT', `/projects/${w.project.id}/repository/files/app.txt`, { branch: 'third', content: text(lines), commit_message: 'two' });
    await kiln.worker.drain();
    const traced = await thread(v1, { new_line: 18 });
    const latest = await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/merge_requests/${v1.iid}`);
    expect(traced.notes[0].position).toMatchObject({ head_sha: latest.diff_refs.head_sha, new_line: 18 });
    const stale = await thread(v1, { new_line: 2 });
    expect(stale.notes[0].position).toMatchObject({ head_sha: v1.diff_refs.head_sha, new_line: 2 });
  });
});
