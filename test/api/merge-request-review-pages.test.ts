// A review and suggestions on the merge request pages (issue 34): "Start a review" keeps a comment
// as a draft note, the pending review is listed with "Submit review", which publishes it; "Apply
// suggestion" on a diff thread commits the suggestion for those who may push. Through inject with a
// browser-like session (CSRF tokens as a browser sends them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';
import { branchWith, create, openMergeRequest, seedRepository } from './merge-requests-helpers.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let mr: any;
let self: string;

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  await seedRepository(kiln, w.owner, w.project.id);
  await branchWith(kiln, w.developer, w.project.id, 'feature', [create('app.txt', 'one\ntwo\n')]);
  mr = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'feature', title: 'Add app' });
  self = `/${w.project.path_with_namespace}/-/merge_requests/${mr.iid}`;
}, 90_000);

afterAll(async () => {
  await kiln?.close();
});

async function signedIn(user: RepositoryWorld['reporter']) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

describe('the merge request pages', { timeout: 90_000 }, () => {
  it('start a review from a diff line, list it to its author only, and submit it', async () => {
    const web = await signedIn(w.reporter);
    const changes = await web.get(`${self}/diffs`);
    const formUrl = /hx-get="([^"]*diff_note_form[^"]*new_line=2[^"]*)"/.exec(changes.body)![1].replace(/&amp;/g, '&');
    const form = await web.get(formUrl);
    expect(form.body).toContain('name="review" value="1"');
    expect(form.body).toContain('Start a review');
    const fields = Object.fromEntries([...form.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((match) => [match[1], match[2]]));
    expect((await web.post(`${self}/notes`, { ...fields, note: 'Why two?', review: '1' }, { csrfFrom: self })).statusCode).toBe(303);
    const overview = await web.get(self);
    expect(overview.body).toContain('Your review: 1 pending comment');
    expect(overview.body).toContain('app.txt line 2');
    expect(overview.body).toContain('Add to review');
    expect(await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/merge_requests/${mr.iid}/discussions`)).toEqual([]);
    expect((await (await signedIn(w.developer)).get(self)).body).not.toContain('pending-review');
    expect((await web.post(`${self}/review`, {}, { csrfFrom: self })).statusCode).toBe(303);
    const [thread] = await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/merge_requests/${mr.iid}/discussions`);
    expect(thread.notes[0]).toMatchObject({ body: 'Why two?', type: 'DiffNote', position: { new_line: 2 } });
    expect((await web.get(self)).body).not.toContain('pending-review');
  });

  it('apply a suggestion for those who may push to the source branch', async () => {
    const position = { ...mr.diff_refs, position_type: 'text', old_path: 'app.txt', new_path: 'app.txt', new_line: 1 };
    const thread = await kiln.apiAs(w.reporter, 'POST', `/projects/${w.project.id}/merge_requests/${mr.iid}/discussions`, { body: '```suggestion\nONE\n```', position });
    const [suggestion] = thread.notes[0].suggestions;
    const reporter = await signedIn(w.reporter);
    expect((await reporter.get(`${self}/diffs`)).body).not.toContain(`suggestions/${suggestion.id}/apply`);
    expect((await reporter.post(`${self}/suggestions/${suggestion.id}/apply`, {}, { csrfFrom: self })).statusCode).toBe(403);
    const developer = await signedIn(w.developer);
    const diffs = (await developer.get(`${self}/diffs`)).body;
    expect(diffs).toContain(`suggestions/${suggestion.id}/apply`);
    expect(diffs).toContain('<del>- one\n</del><ins>+ ONE\n</ins>');
    expect((await developer.post(`${self}/suggestions/${suggestion.id}/apply`, {}, { csrfFrom: self })).statusCode).toBe(303);
    const file = await kiln.apiAs(w.developer, 'GET', `/projects/${w.project.id}/repository/files/app.txt?ref=feature`);
    expect(Buffer.from(file.content, 'base64').toString()).toBe('ONE\ntwo\n');
    expect((await developer.get(self)).body).toContain('Applied');
  });

  it('a comment, a reply, resolving and applying a suggestion on page 2 of the Changes tab come back to page 2 at what they made', async () => {
    // 25 files: the Changes tab shows 20 a page, so the last files are on page 2.
    await branchWith(kiln, w.developer, w.project.id, 'wide', Array.from({ length: 25 }, (_, index) => create(`files/f${String(index).padStart(2, '0')}.txt`, `line of ${index}\n`)));
    const wide = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'wide', title: 'Many files' });
    const wideSelf = `/${w.project.path_with_namespace}/-/merge_requests/${wide.iid}`;
    const developer = await signedIn(w.developer);
    const page2 = (await developer.get(`${wideSelf}/diffs?page=2&view=parallel`)).body;
    const formUrl = /hx-get="([^"]*diff_note_form[^"]*f24\.txt[^"]*)"/.exec(page2)![1].replace(/&amp;/g, '&');
    expect(formUrl).toContain('page=2');
    const form = await developer.get(formUrl);
    const fields = Object.fromEntries([...form.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((match) => [match[1], match[2]]));
    expect(fields).toMatchObject({ return_to: 'diffs', return_page: '2', return_view: 'parallel' });
    const commented = await developer.post(`${wideSelf}/notes`, { ...fields, note: 'Shout it:\n```suggestion\nLINE OF 24\n```' }, { csrfFrom: wideSelf });
    expect(commented.statusCode).toBe(303);
    const [thread] = await kiln.apiAs(w.developer, 'GET', `/projects/${w.project.id}/merge_requests/${wide.iid}/discussions`);
    expect(commented.headers.location).toBe(`${wideSelf}/diffs?page=2&view=parallel#note_${thread.notes[0].id}`);
    const shown = (await developer.get(`${wideSelf}/diffs?page=2&view=parallel`)).body;
    const thisThread = shown.slice(shown.indexOf(`id="discussion_${thread.id}"`));
    const returns = (html: string) => Object.fromEntries([...html.matchAll(/<input type="hidden" name="(return_[a-z]+)" value="([^"]*)">/g)].map((match) => [match[1], match[2]]));
    expect(returns(thisThread.slice(0, thisThread.indexOf('Resolve thread')))).toEqual({ return_to: 'diffs', return_page: '2', return_view: 'parallel' });
    const back = { return_to: 'diffs', return_page: '2', return_view: 'parallel' };
    const replied = await developer.post(`${wideSelf}/notes`, { ...back, discussion_id: thread.id, note: 'Or not' }, { csrfFrom: wideSelf });
    expect(replied.headers.location).toMatch(new RegExp(`^${wideSelf}/diffs\\?page=2&view=parallel#note_\\d+$`));
    const [suggestion] = thread.notes[0].suggestions;
    const applied = await developer.post(`${wideSelf}/suggestions/${suggestion.id}/apply`, back, { csrfFrom: wideSelf });
    expect(applied.headers.location).toBe(`${wideSelf}/diffs?page=2&view=parallel#discussion_${thread.id}`);
    const file = await kiln.apiAs(w.developer, 'GET', `/projects/${w.project.id}/repository/files/files%2Ff24.txt?ref=wide`);
    expect(Buffer.from(file.content, 'base64').toString()).toBe('LINE OF 24\n');
    // The page it lands on already shows the new version (no job has run since).
    const after = (await developer.get(`${wideSelf}/diffs?page=2&view=parallel`)).body;
    expect(after).toContain('LINE OF 24');
    expect((await kiln.apiAs(w.developer, 'GET', `/projects/${w.project.id}/merge_requests/${wide.iid}`)).sha).toBe((await kiln.apiAs(w.developer, 'GET', `/projects/${w.project.id}/repository/branches/wide`)).commit.id);
    // Applying resolved the thread (GitLab); reopening it from page 2 comes back there too.
    const reopened = await developer.post(`${wideSelf}/discussions/${thread.id}/resolve`, { ...back, resolved: '0' }, { csrfFrom: wideSelf });
    expect(reopened.headers.location).toBe(`${wideSelf}/diffs?page=2&view=parallel#discussion_${thread.id}`);
    // A form of the Overview lands on the Overview; a made-up return is read as a page number only.
    expect((await developer.post(`${wideSelf}/notes`, { note: 'Overall fine' }, { csrfFrom: wideSelf })).headers.location).toMatch(new RegExp(`^${wideSelf}#note_\\d+$`));
    expect((await developer.post(`${wideSelf}/notes`, { return_to: 'diffs', return_page: '//evil.example', note: 'x' }, { csrfFrom: wideSelf })).headers.location).toMatch(new RegExp(`^${wideSelf}/diffs#note_\\d+$`));
  });
});
