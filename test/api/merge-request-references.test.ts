// `!7` references to merge requests in GitLab Flavored Markdown (issue 34): linked to the merge
// request for callers who may read the project's merge requests, plain text for everyone else and
// for iids that do not exist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';
import { branchWith, create, openMergeRequest, seedRepository } from './merge-requests-helpers.js';
import { renderMarkdown } from '../../src/markdown/render-markdown.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let mr: any;
/** A sibling project in the same group (members: the owner only) and a private project elsewhere. */
let sibling: any;
let secret: any;
let siblingIssue: any;
let siblingMr: any;
let secretIssue: any;

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  await seedRepository(kiln, w.owner, w.project.id);
  await branchWith(kiln, w.developer, w.project.id, 'referenced', [create('r.txt', 'r\n')]);
  mr = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'referenced', title: 'Referenced change' });
  sibling = await kiln.createProject(w.owner, 'lib', { namespace_id: w.group.id, visibility: 'private' });
  await seedRepository(kiln, w.owner, sibling.id);
  await branchWith(kiln, w.owner, sibling.id, 'lib-change', [create('l.txt')]);
  siblingMr = await openMergeRequest(kiln, w.owner, sibling.id, { source_branch: 'lib-change', title: 'Library change' });
  siblingIssue = await kiln.apiAs(w.owner, 'POST', `/projects/${sibling.id}/issues`, { title: 'Library bug' });
  secret = await kiln.createProject(w.stranger, 'hidden', { visibility: 'private' });
  secretIssue = await kiln.apiAs(w.stranger, 'POST', `/projects/${secret.id}/issues`, { title: 'Secret plan' });
});

afterAll(async () => {
  await kiln?.close();
});

const render = (token: string, text: string) => kiln.api('POST', '/markdown', { token, body: { text, gfm: true, project: w.project.path_with_namespace } });

describe('!iid in Markdown', () => {
  it('links a merge request the caller may read, with its title', async () => {
    const { status, body } = await render(w.reporter.token, `Fixed by !${mr.iid}, not !999 nor a!${mr.iid} or ![img](x.png).`);
    expect(status).toBe(201);
    expect(body.html).toContain(`<a href="${mr.web_url}" title="Referenced change" data-reference-type="merge_request" data-project="${w.project.id}" data-merge-request="${mr.id}" class="gfm gfm-merge_request">!${mr.iid}</a>`);
    expect(body.html).toContain('not !999 nor a!');
    expect(body.html.match(/gfm-merge_request/g)).toHaveLength(1);
  });

  it('leaves it plain for a caller who may not read merge requests (a guest of a private project)', async () => {
    const { body } = await render(w.guest.token, `See !${mr.iid}`);
    expect(body.html).toBe(`<p>See !${mr.iid}</p>\n`);
  });

  it('leaves it plain inside code and links', () => {
    const references = { issues: new Map(), users: new Map(), mergeRequests: new Map([[1, { url: 'http://kiln.test/g/p/-/merge_requests/1', title: 'T', projectId: 1, mergeRequestId: 9 }]]) };
    const html = renderMarkdown('`!1` [see !1](http://example.com) !1', { gfm: true, references });
    expect(html.match(/gfm-merge_request/g)).toHaveLength(1);
    expect(html).toContain('<code>!1</code>');
  });
});

describe('cross-project references', () => {
  it('links project#N and group/project!N the caller may read, with the text as written', async () => {
    const text = `See lib#${siblingIssue.iid}, ${sibling.path_with_namespace}!${siblingMr.iid} and ${sibling.path_with_namespace.toUpperCase()}#${siblingIssue.iid}; not lib#999, nolib!1 or x/lib#${siblingIssue.iid}.`;
    const { body } = await render(w.owner.token, text);
    expect(body.html).toContain(`<a href="${siblingIssue.web_url}" title="Library bug" data-reference-type="issue" data-project="${sibling.id}" data-issue="${siblingIssue.id}" class="gfm gfm-issue">lib#${siblingIssue.iid}</a>`);
    expect(body.html).toContain(`<a href="${siblingMr.web_url}" title="Library change" data-reference-type="merge_request" data-project="${sibling.id}" data-merge-request="${siblingMr.id}" class="gfm gfm-merge_request">${sibling.path_with_namespace}!${siblingMr.iid}</a>`);
    expect(body.html).toContain(`>${sibling.path_with_namespace.toUpperCase()}#${siblingIssue.iid}</a>`);
    expect(body.html.match(/<a /g)).toHaveLength(3);
  });

  it('leaves references to projects the caller cannot read as plain text, titles unsaid', async () => {
    // The developer is no member of the sibling; the owner none of the stranger's project.
    const forDeveloper = (await render(w.developer.token, `lib#${siblingIssue.iid} ${sibling.path_with_namespace}!${siblingMr.iid}`)).body.html;
    expect(forDeveloper).not.toContain('<a ');
    expect(forDeveloper).not.toContain('Library');
    const forOwner = (await render(w.owner.token, `${secret.path_with_namespace}#${secretIssue.iid}`)).body.html;
    expect(forOwner).toBe(`<p>${secret.path_with_namespace}#${secretIssue.iid}</p>\n`);
    const forStranger = (await kiln.api('POST', '/markdown', { token: w.stranger.token, body: { text: `${secret.path_with_namespace}#${secretIssue.iid}`, gfm: true, project: secret.path_with_namespace } })).body.html;
    expect(forStranger).toContain('title="Secret plan"');
  });

  it('scans a long run of path characters in linear time', () => {
    const references = { issues: new Map(), users: new Map(), crossProject: new Map([['g/p#1', { url: 'http://kiln.test/g/p/-/issues/1', title: 'T', projectId: 1, issueId: 2 }]]) };
    const html = renderMarkdown(`${'a/'.repeat(50_000)} ${'b-'.repeat(50_000)} g/p#1`, { gfm: true, references });
    expect(html.match(/gfm-issue/g)).toHaveLength(1);
  });
});

describe('cross-reference system notes', () => {
  const systemNotes = async (type: 'Issue' | 'MergeRequest', id: number) => {
    await kiln.worker.drain();
    const rows = await kiln.deps.db.selectFrom('notes').select('body').where('noteable_type', '=', type).where('noteable_id', '=', id).where('system', '=', 1).orderBy('id').execute();
    return rows.map((row) => row.body).filter((body) => body.startsWith('mentioned in'));
  };

  it('notes "mentioned in" on the issues and merge requests a text names, once, as seen from the target', async () => {
    const tracked = await kiln.apiAs(w.owner, 'POST', `/projects/${w.project.id}/issues`, { title: 'Tracked' });
    await branchWith(kiln, w.developer, w.project.id, 'mentions', [create('m.txt')]);
    // The developer cannot read the sibling project: its issue gets nothing.
    const byDeveloper = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'mentions', title: `Work for #${tracked.iid}`, description: `Also lib#${siblingIssue.iid} and !${mr.iid}` });
    expect(await systemNotes('Issue', tracked.id)).toEqual([`mentioned in merge request !${byDeveloper.iid}`]);
    expect(await systemNotes('MergeRequest', mr.id)).toEqual([`mentioned in merge request !${byDeveloper.iid}`]);
    expect(await systemNotes('Issue', siblingIssue.id)).toEqual([]);
    // Edited and commented again: still one note each.
    await kiln.apiAs(w.developer, 'PUT', `/projects/${w.project.id}/merge_requests/${byDeveloper.iid}`, { description: `Now only #${tracked.iid}` });
    await kiln.apiAs(w.developer, 'POST', `/projects/${w.project.id}/merge_requests/${byDeveloper.iid}/notes`, { body: `Again #${tracked.iid}` });
    expect(await systemNotes('Issue', tracked.id)).toEqual([`mentioned in merge request !${byDeveloper.iid}`]);
    // From a sibling project: the source by its project path; from elsewhere: by its full path.
    await kiln.apiAs(w.owner, 'POST', `/projects/${sibling.id}/merge_requests/${siblingMr.iid}/notes`, { body: `Needed by ${w.project.path_with_namespace}#${tracked.iid}` });
    const elsewhere = await kiln.createProject(w.owner, 'elsewhere', { visibility: 'private' });
    const outside = await kiln.apiAs(w.owner, 'POST', `/projects/${elsewhere.id}/issues`, { title: 'Outside', description: `See ${w.project.path_with_namespace}!${mr.iid}` });
    expect(await systemNotes('Issue', tracked.id)).toContain(`mentioned in merge request lib!${siblingMr.iid}`);
    expect(await systemNotes('MergeRequest', mr.id)).toContain(`mentioned in issue ${elsewhere.path_with_namespace}#${outside.iid}`);
    // An issue naming a merge request, and a project the author cannot read (nothing leaks there).
    const naming = await kiln.apiAs(w.owner, 'POST', `/projects/${w.project.id}/issues`, { title: `Follow !${byDeveloper.iid}`, description: `and ${secret.path_with_namespace}#${secretIssue.iid}` });
    expect(await systemNotes('MergeRequest', byDeveloper.id)).toEqual([`mentioned in issue #${naming.iid}`]);
    expect(await systemNotes('Issue', secretIssue.id)).toEqual([]);
  });

  it('notes "mentioned in commit" for pushed commits that name an issue', async () => {
    const pushed = await kiln.apiAs(w.owner, 'POST', `/projects/${w.project.id}/issues`, { title: 'Pushed about' });
    const commit = await branchWith(kiln, w.developer, w.project.id, 'pushed', [create('p.txt')], `Refs #${pushed.iid}`);
    expect(await systemNotes('Issue', pushed.id)).toEqual([`mentioned in commit ${commit.id}`]);
    await branchWith(kiln, w.developer, w.project.id, 'pushed', [create('q.txt')], 'Unrelated');
    expect(await systemNotes('Issue', pushed.id)).toEqual([`mentioned in commit ${commit.id}`]);
  });
});
