// `!7` references to merge requests in GitLab Flavored Markdown (issue 34): linked to the merge
// request for callers who may read the project's merge requests, plain text for everyone else and
// for iids that do not exist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';
import { branchWith, create, openMergeRequest, seedRepository } from './merge-requests-helpers.js';
import { renderMarkdown } from '../../src/markdown/render-markdown.js';
import { proseOnly } from '../../src/markdown/prose-only.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let mr: any;
/** A sibling project in the same group (members: the owner only) and a private project elsewhere. */
let sibling: any;
let secret: any;
let siblingIssue: any;
let siblingMr: any;
let secretIssue: any;
/** The head commits of a branch of the project and of the sibling. */
let localCommit: any;
let siblingCommit: any;

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  await seedRepository(kiln, w.owner, w.project.id);
  localCommit = await branchWith(kiln, w.developer, w.project.id, 'referenced', [create('r.txt', 'r\n')], 'Local commit');
  mr = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'referenced', title: 'Referenced change' });
  sibling = await kiln.createProject(w.owner, 'lib', { namespace_id: w.group.id, visibility: 'private' });
  await seedRepository(kiln, w.owner, sibling.id);
  siblingCommit = await branchWith(kiln, w.owner, sibling.id, 'lib-change', [create('l.txt')], 'Library commit');
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

describe('commit SHAs in Markdown', () => {
  it('links a SHA of 7 to 40 digits and project@sha to the commit page when the commit exists, showing the short id', async () => {
    const short = localCommit.id.slice(0, 7);
    const text = `Since ${short}, ${localCommit.id.toUpperCase()} and lib@${siblingCommit.id.slice(0, 10)}; not deadbee, ${short}x, #${short} nor \`${short}\`.`;
    const { body } = await render(w.owner.token, text);
    expect(body.html).toContain(`<a href="${w.project.web_url}/-/commit/${localCommit.id}" title="Local commit" data-reference-type="commit" data-project="${w.project.id}" data-commit="${localCommit.id}" class="gfm gfm-commit">${localCommit.id.slice(0, 8)}</a>`);
    expect(body.html).toContain(`<a href="${sibling.web_url}/-/commit/${siblingCommit.id}" title="Library commit" data-reference-type="commit" data-project="${sibling.id}" data-commit="${siblingCommit.id}" class="gfm gfm-commit">lib@${siblingCommit.id.slice(0, 8)}</a>`);
    expect(body.html.match(/gfm-commit/g)).toHaveLength(3);
    expect(body.html).toContain('not deadbee,');
    expect(body.html).toContain(`<code>${short}</code>`);
  });

  it('leaves SHAs plain for a reader who may not read the code (a guest of a private project, a non-member of the sibling)', async () => {
    const guest = (await render(w.guest.token, `See ${localCommit.id}`)).body.html;
    expect(guest).toBe(`<p>See ${localCommit.id}</p>\n`);
    const developer = (await render(w.developer.token, `See lib@${siblingCommit.id}`)).body.html;
    expect(developer).not.toContain('<a ');
    expect(developer).not.toContain('Library commit');
  });
});

describe('references inside code', () => {
  it('blanks inline code, fenced and indented blocks, keeping offsets and prose', () => {
    const text = 'See #1 and `#2` or ``a ` #3``\n\n```\n#4\n```\n\n    #5\n\n- item\n\n    #6 in the item\n\n~~~~ js\n#7\n~~~\n#8\n~~~~\n#9 after';
    const prose = proseOnly(text);
    expect(prose).toHaveLength(text.length);
    expect([...prose.matchAll(/#(\d)/g)].map((match) => match[1])).toEqual(['1', '6', '9']);
    // An unclosed run of backticks is text, and runs only close on a run of their own length.
    expect(proseOnly('a ` #1')).toBe('a ` #1');
    expect(proseOnly('`` #1 ` #2 `` #3')).toBe(`${' '.repeat(13)} #3`);
  });

  it('makes no "mentioned in" note and no link for a reference inside code', async () => {
    const quoted = await kiln.apiAs(w.owner, 'POST', `/projects/${w.project.id}/issues`, { title: 'Quoted only' });
    const named = await kiln.apiAs(w.owner, 'POST', `/projects/${w.project.id}/issues`, { title: 'Named' });
    const body = `Run \`fix #${quoted.iid}\` then:\n\n\`\`\`\ngit log --grep '#${quoted.iid}'\n\`\`\`\n\nfor #${named.iid}`;
    await kiln.apiAs(w.developer, 'POST', `/projects/${w.project.id}/merge_requests/${mr.iid}/notes`, { body });
    await kiln.worker.drain();
    const notesOn = async (id: number) => (await kiln.deps.db.selectFrom('notes').select('body').where('noteable_type', '=', 'Issue').where('noteable_id', '=', id).where('system', '=', 1).execute()).map((row) => row.body);
    expect(await notesOn(quoted.id)).toEqual([]);
    expect(await notesOn(named.id)).toEqual([`mentioned in merge request !${mr.iid}`]);
    const html = (await render(w.owner.token, body)).body.html;
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

describe('cross-reference notes and who may see their source', () => {
  const mentions = (notes: any[]) => notes.filter((note) => note.system && note.body.startsWith('mentioned in')).map((note) => note.body);
  const notesOf = async (token: string | undefined, path: string) => {
    const { status, body } = await kiln.api('GET', `${path}/notes`, { token, query: { per_page: 100 } });
    expect(status).toBe(200);
    return mentions(body);
  };

  it('hides a note whose source (a private project, a confidential issue) the reader cannot read, in the API and on the page', async () => {
    const open = await kiln.createProject(w.owner, 'open', { visibility: 'public' });
    const target = await kiln.apiAs(w.owner, 'POST', `/projects/${open.id}/issues`, { title: 'Public target' });
    const hidden = await kiln.createProject(w.owner, 'private-source', { visibility: 'private' });
    const source = await kiln.apiAs(w.owner, 'POST', `/projects/${hidden.id}/issues`, { title: 'Private source', description: `Needs ${open.path_with_namespace}#${target.iid}` });
    const confidential = await kiln.apiAs(w.owner, 'POST', `/projects/${open.id}/issues`, { title: 'Embargoed', confidential: true, description: `Blocks #${target.iid}` });
    const visible = await kiln.apiAs(w.owner, 'POST', `/projects/${open.id}/issues`, { title: 'Public source', description: `Related to #${target.iid}` });
    await kiln.worker.drain();
    const all = [`mentioned in issue ${hidden.path}#${source.iid}`, `mentioned in issue #${confidential.iid}`, `mentioned in issue #${visible.iid}`];
    const path = `/projects/${open.id}/issues/${target.iid}`;
    // A sibling in the same namespace is named by its path. The owner reads every source; an outsider and an anonymous reader only the public issue.
    expect(await notesOf(w.owner.token, path)).toEqual([...all].reverse());
    expect(await notesOf(w.stranger.token, path)).toEqual([`mentioned in issue #${visible.iid}`]);
    expect(await notesOf(undefined, path)).toEqual([`mentioned in issue #${visible.iid}`]);
    // A project member (Reporter) of the private project sees its note.
    await kiln.addMember(w.owner, 'projects', hidden.id, w.stranger, 20);
    expect(await notesOf(w.stranger.token, path)).toContain(all[0]);

    const { body: discussions } = await kiln.api('GET', `${path}/discussions`, { token: w.reporter.token });
    expect(mentions(discussions.flatMap((discussion: any) => discussion.notes))).toEqual([`mentioned in issue #${visible.iid}`]);
    const { body: ownerDiscussions } = await kiln.api('GET', `${path}/discussions`, { token: w.owner.token });
    const hiddenNote = ownerDiscussions.flatMap((discussion: any) => discussion.notes).find((note: any) => note.body === all[1]);
    expect((await kiln.api('GET', `${path}/notes/${hiddenNote.id}`, { token: w.reporter.token })).status).toBe(404);
    expect((await kiln.api('GET', `${path}/discussions/${hiddenNote.discussion_id ?? ownerDiscussions.find((d: any) => d.notes.some((n: any) => n.id === hiddenNote.id)).id}`, { token: w.reporter.token })).status).toBe(404);
    expect((await kiln.api('GET', `${path}/notes/${hiddenNote.id}`, { token: w.owner.token })).status).toBe(200);

    const page = await kiln.request('GET', `/${open.path_with_namespace}/-/issues/${target.iid}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`#${visible.iid}`);
    expect(page.body).not.toContain(hidden.path);
    expect(page.body).not.toContain(`#${confidential.iid}<`);
    const owner = new WebSession(kiln);
    await owner.signIn(w.owner.username, w.owner.password);
    expect((await owner.get(`/${open.path_with_namespace}/-/issues/${target.iid}`)).body).toContain('private-source');
  });

  it('hides a note from a merge request of a project whose merge requests the reader may not see, on the merge request page too', async () => {
    const open = await kiln.createProject(w.owner, 'open-mrs', { visibility: 'public' });
    await seedRepository(kiln, w.owner, open.id);
    await kiln.apiAs(w.owner, 'PUT', `/projects/${open.id}`, { merge_requests_access_level: 'private' });
    await branchWith(kiln, w.owner, open.id, 'first', [create('f.txt')]);
    await branchWith(kiln, w.owner, open.id, 'second', [create('s.txt')]);
    const target = await openMergeRequest(kiln, w.owner, open.id, { source_branch: 'first', title: 'Target' });
    const issue = await kiln.apiAs(w.owner, 'POST', `/projects/${open.id}/issues`, { title: 'Public issue' });
    const source = await openMergeRequest(kiln, w.owner, open.id, { source_branch: 'second', title: 'Source', description: `Closes #${issue.iid} after !${target.iid}` });
    const hidden = await kiln.createProject(w.owner, 'private-mr-source', { visibility: 'private' });
    await kiln.apiAs(w.owner, 'POST', `/projects/${hidden.id}/issues`, { title: 'Private', description: `See ${open.path_with_namespace}!${target.iid}` });
    await kiln.worker.drain();
    const issuePath = `/projects/${open.id}/issues/${issue.iid}`;
    expect(await notesOf(w.owner.token, issuePath)).toEqual([`mentioned in merge request !${source.iid}`]);
    expect(await notesOf(w.stranger.token, issuePath)).toEqual([]);
    const owner = new WebSession(kiln);
    await owner.signIn(w.owner.username, w.owner.password);
    const page = (await owner.get(`/${open.path_with_namespace}/-/merge_requests/${target.iid}`)).body;
    expect(page).toContain('private-mr-source');
    const reporter = new WebSession(kiln);
    await kiln.addMember(w.owner, 'projects', open.id, w.reporter, 20);
    await reporter.signIn(w.reporter.username, w.reporter.password);
    const seen = await reporter.get(`/${open.path_with_namespace}/-/merge_requests/${target.iid}`);
    expect(seen.statusCode).toBe(200);
    expect(seen.body).toContain(`mentioned in merge request`);
    expect(seen.body).not.toContain('private-mr-source');
  });

  it('hides an old note whose source could not be read back (the migration marks it Unknown) from everyone', async () => {
    const open = await kiln.createProject(w.owner, 'open-old', { visibility: 'public' });
    const target = await kiln.apiAs(w.owner, 'POST', `/projects/${open.id}/issues`, { title: 'Old target' });
    const now = kiln.clock.now();
    await kiln.deps.db.insertInto('notes').values({ project_id: open.id, noteable_type: 'Issue', noteable_id: target.id, author_id: w.owner.id, body: 'mentioned in issue gone/away#1', system: 1, discussion_id: 'a'.repeat(40), created_at: now, updated_at: now, cross_reference_type: 'Unknown' }).execute();
    expect(await notesOf(w.owner.token, `/projects/${open.id}/issues/${target.iid}`)).toEqual([]);
  });
});
