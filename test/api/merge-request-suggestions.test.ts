// Suggestions applied (issue 34, review): `PUT /suggestions/:id/apply` and `PUT
// /suggestions/batch_apply` make one commit on the merge request's source branch with GitLab's
// message, author and refusals; on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';
import { branchWith, create, openMergeRequest, seedRepository } from './merge-requests-helpers.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let mr: any;

const fence = '```';
const base = () => `/projects/${w.project.id}/merge_requests/${mr.iid}`;

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  await seedRepository(kiln, w.owner, w.project.id);
  await branchWith(kiln, w.developer, w.project.id, 'feature', [create('app.txt', 'one\ntwo\nthree\nfour\nfive\n'), create('other.txt', 'alpha\n')]);
  mr = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'feature', title: 'Add files' });
}, 90_000);

afterAll(async () => {
  await kiln?.close();
});

async function suggest(user = w.reporter, path: string, line: number, body: string): Promise<any> {
  const fresh = await kiln.apiAs(user, 'GET', base());
  const position = { ...fresh.diff_refs, position_type: 'text', old_path: path, new_path: path, new_line: line };
  const thread = await kiln.apiAs(user, 'POST', `${base()}/discussions`, { body, position });
  return thread.notes[0].suggestions;
}

/** The first note of the thread that made the suggestion. */
async function threadOf(suggestionId: number): Promise<any> {
  const discussions = await kiln.apiAs(w.developer, 'GET', `${base()}/discussions?per_page=100`);
  return discussions.map((discussion: any) => discussion.notes[0]).find((note: any) => note.suggestions?.some((suggestion: any) => suggestion.id === suggestionId));
}

const file = async (path: string) => (await kiln.api('GET', `/projects/${w.project.id}/repository/files/${path}/raw`, { token: w.developer.token, query: { ref: 'feature' } })).body;

describe('applying suggestions', () => {
  it('applies one as a commit by its author, committed by the caller, with GitLab\'s default message', async () => {
    const [suggestion] = await suggest(w.reporter, 'app.txt', 2, `Better:\n${fence}suggestion\nTWO\n${fence}\n`);
    expect(suggestion).toMatchObject({ from_line: 2, to_line: 2, appliable: true, applied: false, from_content: 'two\n', to_content: 'TWO\n' });
    expect((await kiln.api('PUT', `/suggestions/${suggestion.id}/apply`, { token: w.reporter.token })).body).toEqual({ message: '403 Forbidden' });
    const applied = await kiln.apiAs(w.developer, 'PUT', `/suggestions/${suggestion.id}/apply`);
    expect(applied).toMatchObject({ id: suggestion.id, applied: true, appliable: false });
    expect(String(await file('app.txt'))).toBe('one\nTWO\nthree\nfour\nfive\n');
    const head = await kiln.apiAs(w.developer, 'GET', `/projects/${w.project.id}/repository/commits/feature`);
    const reporter = await kiln.deps.db.selectFrom('users').select(['name', 'email']).where('id', '=', w.reporter.id).executeTakeFirstOrThrow();
    const developer = await kiln.deps.db.selectFrom('users').select(['name', 'email']).where('id', '=', w.developer.id).executeTakeFirstOrThrow();
    expect(head).toMatchObject({ title: 'Apply 1 suggestion(s) to 1 file(s)', author_name: reporter.name, author_email: reporter.email, committer_name: developer.name, committer_email: developer.email });
    expect(head.message.trim()).toBe(`Apply 1 suggestion(s) to 1 file(s)\n\nCo-authored-by: ${reporter.name} <${reporter.email}>`);
    expect((await kiln.api('PUT', `/suggestions/${suggestion.id}/apply`, { token: w.developer.token })).body).toEqual({ message: "Can't apply this suggestion." });
    // The thread is resolved by who applied it, as GitLab does.
    expect(await threadOf(suggestion.id)).toMatchObject({ resolved: true, resolved_by: { id: w.developer.id } });
  }, 90_000);

  it('applies several in one commit with a custom message; refuses overlaps, stale lines and unknown ids', async () => {
    await kiln.worker.drain();
    const [first] = await suggest(w.reporter, 'app.txt', 4, `${fence}suggestion:-1+0\nTHREE\nFOUR\n${fence}`);
    const [second] = await suggest(w.maintainer, 'other.txt', 1, `${fence}suggestion\n${fence}`);
    const [overlapping] = await suggest(w.maintainer, 'app.txt', 3, `${fence}suggestion\n3\n${fence}`);
    expect((await kiln.api('PUT', '/suggestions/batch_apply', { token: w.developer.token, body: { ids: [first.id, overlapping.id] } })).body).toEqual({ message: 'Suggestions are not applicable as their lines cannot overlap.' });
    expect((await kiln.api('PUT', '/suggestions/batch_apply', { token: w.developer.token, body: { ids: [first.id, 999999] } })).body).toEqual({ message: 'Suggestions are not applicable as one or more suggestions were not found.' });
    expect((await kiln.api('PUT', '/suggestions/999999/apply', { token: w.developer.token })).body).toEqual({ message: 'Suggestion is not applicable as the suggestion was not found.' });
    expect((await kiln.api('PUT', '/suggestions/batch_apply', { token: w.developer.token, body: {} })).body).toEqual({ error: 'ids is missing' });
    const applied = await kiln.apiAs(w.developer, 'PUT', '/suggestions/batch_apply', { ids: [first.id, second.id], commit_message: 'Review fixes on %{branch_name} (%{file_paths})' });
    expect(applied.map((row: any) => [row.id, row.applied])).toEqual([[first.id, true], [second.id, true]]);
    expect([(await threadOf(first.id)).resolved, (await threadOf(second.id)).resolved, (await threadOf(overlapping.id)).resolved]).toEqual([true, true, false]);
    expect(String(await file('app.txt'))).toBe('one\nTWO\nTHREE\nFOUR\nfive\n');
    expect((await kiln.apiAs(w.developer, 'GET', `/projects/${w.project.id}/repository/files/other.txt?ref=feature`)).size).toBe(0);
    const head = await kiln.apiAs(w.developer, 'GET', `/projects/${w.project.id}/repository/commits/feature`);
    expect(head.title).toBe('Review fixes on feature (app.txt, other.txt)');
    // Two authors: the caller is the author of record.
    expect(head.author_name).toBe(head.committer_name);
    // The line the overlapping suggestion was made on changed.
    await kiln.worker.drain();
    expect((await kiln.api('PUT', `/suggestions/${overlapping.id}/apply`, { token: w.developer.token })).body).toEqual({ message: "Can't apply as this line was changed in a more recent version." });
  }, 90_000);
});
