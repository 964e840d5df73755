// Description templates (issue 38): GET /projects/:id/templates/issues and merge_requests answer the
// Markdown files of `.gitlab/issue_templates/` and `.gitlab/merge_request_templates/` on the default
// branch, for readers of the code; the new issue and new merge request pages offer them
// (`issuable_template`, and `Default` filling a new form).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { branchWith, commit, create } from './merge-requests-helpers.js';

let kiln: TestKiln;
let alice: TestUser;
let bob: TestUser;
let guest: TestUser;
let project: any;
let secret: any;
let empty: any;

const BUG = '## Steps\n\n1. <b>then</b> & more\n';
const DEFAULT = 'Describe the problem.\n';

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  guest = await kiln.createUser('guest');
  project = await kiln.createProject(alice, 'app', { visibility: 'public' });
  await commit(kiln, alice.token, project.id, {
    branch: 'main', commit_message: 'templates',
    actions: [
      create('.gitlab/issue_templates/Bug.md', BUG),
      create('.gitlab/issue_templates/Default.md', DEFAULT),
      create('.gitlab/issue_templates/Feature request.md', 'What should it do?\n'),
      create('.gitlab/issue_templates/alpha.md', 'lower case sorts after upper case\n'),
      create('.gitlab/issue_templates/notes.txt', 'not Markdown\n'),
      create('.gitlab/issue_templates/nested/Inner.md', 'in a sub-folder\n'),
      create('.gitlab/secret.md', 'outside the folder\n'),
      create('.gitlab/merge_request_templates/Change.md', '## What changes\n'),
      create('.gitlab/merge_request_templates/Default.md', 'Closes #\n'),
    ],
  });
  await branchWith(kiln, alice, project.id, 'plain', [create('one.txt')], 'Add one');
  await branchWith(kiln, alice, project.id, 'explained', [create('two.txt')], 'Add two\n\nBecause two is needed.');
  secret = await kiln.createProject(alice, 'secret', { visibility: 'private' });
  await kiln.addMember(alice, 'projects', secret.id, guest, 10);
  await commit(kiln, alice.token, secret.id, { branch: 'main', commit_message: 'templates', actions: [create('.gitlab/issue_templates/Bug.md', BUG)] });
  empty = await kiln.createProject(alice, 'empty');
}, 120_000);
afterAll(() => kiln?.close());

const templates = (id: number, rest: string, user?: TestUser) => kiln.api('GET', `/projects/${id}/templates/${rest}`, user ? { token: user.token } : {});

describe('GET /projects/:id/templates/issues and merge_requests', () => {
  it("lists the folder's Markdown files by name (GitLab's order), paginated, as key and name", async () => {
    const list = await templates(project.id, 'issues');
    expect(list.status).toBe(200);
    expect(list.body).toEqual(['Bug', 'Default', 'Feature request', 'alpha'].map((name) => ({ key: name, name })));
    const page = await templates(project.id, 'issues?per_page=2&page=2', alice);
    expect(page.headers['x-total']).toBe('4');
    expect(page.body.map((entry: any) => entry.name)).toEqual(['Feature request', 'alpha']);
    expect((await templates(project.id, 'merge_requests')).body).toEqual([{ key: 'Change', name: 'Change' }, { key: 'Default', name: 'Default' }]);
  });

  it('answers one as name and content; 404 Template Not Found for another name', async () => {
    const bug = await templates(project.id, 'issues/Bug');
    expect(bug.status).toBe(200);
    expect(bug.body).toEqual({ name: 'Bug', content: BUG });
    expect((await templates(project.id, 'issues/Feature%20request')).body.content).toBe('What should it do?\n');
    expect((await templates(project.id, 'merge_requests/Change')).body).toEqual({ name: 'Change', content: '## What changes\n' });
    for (const name of ['Nope', 'bug', 'notes', 'Bug.md', 'Change']) {
      expect(await templates(project.id, `issues/${encodeURIComponent(name)}`)).toMatchObject({ status: 404, body: { message: '404 Template Not Found' } });
    }
  });

  it('never leaves the folder, whatever the name', async () => {
    for (const name of ['../secret', '..%2Fsecret', '%2E%2E%2Fsecret', 'nested/Inner', 'nested%2FInner', '..', '../merge_request_templates/Change']) {
      const answer = await templates(project.id, `issues/${name.includes('%') ? name : encodeURIComponent(name)}`);
      expect(answer.status, name).toBe(404);
      expect(JSON.stringify(answer.body)).not.toContain('outside the folder');
    }
  });

  it("keeps a private project's templates from outsiders (404) and from members who may not read its code (403)", async () => {
    expect((await templates(secret.id, 'issues', alice)).body).toEqual([{ key: 'Bug', name: 'Bug' }]);
    for (const rest of ['issues', 'issues/Bug']) {
      expect((await templates(secret.id, rest, bob)).status, rest).toBe(404);
      expect((await templates(secret.id, rest)).status, rest).toBe(404);
      expect((await templates(secret.id, rest, guest)).status, rest).toBe(403);
    }
  });

  it('lists none for an empty repository', async () => {
    expect(await templates(empty.id, 'issues', alice)).toMatchObject({ status: 200, body: [] });
    expect(await templates(empty.id, 'merge_requests/Default', alice)).toMatchObject({ status: 404, body: { message: '404 Template Not Found' } });
  });

  it('documents the two kinds among the values of :type', async () => {
    const doc = (await kiln.request('GET', '/api/v4/openapi.json')).body;
    const parameters = JSON.parse(doc).paths['/projects/{id}/templates/{type}'].get.parameters;
    expect(parameters.find((parameter: any) => parameter.name === 'type').schema.enum).toEqual(expect.arrayContaining(['licenses', 'issues', 'merge_requests']));
  });
});

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

const textarea = (body: string, id: string) => new RegExp(`<textarea id="${id}"[^>]*>([^<]*)</textarea>`).exec(body)?.[1];

describe('the new issue page', () => {
  it('offers the templates and fills a new form with Default', async () => {
    const page = await (await signedIn(alice)).get('/alice/app/-/issues/new');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<label for="issuable-template">Description template</label>');
    expect(page.body).toMatch(/<select id="issuable-template" name="issuable_template" form="issuable-template-form" data-template-for="issue-description"><option value="">No template<\/option><option value="Bug">Bug<\/option><option value="Default" selected>Default<\/option>/);
    expect(page.body).toContain('<form method="get" action="/alice/app/-/issues/new" id="issuable-template-form">');
    expect(textarea(page.body, 'issue-description')).toBe(DEFAULT);
  });

  it('fills the description with the template issuable_template names (escaped), none when it is empty', async () => {
    const web = await signedIn(alice);
    const bug = await web.get('/alice/app/-/issues/new?issuable_template=Bug');
    expect(bug.body).toContain('<option value="Bug" selected>Bug</option>');
    expect(textarea(bug.body, 'issue-description')).toBe('## Steps\n\n1. &lt;b&gt;then&lt;/b&gt; &amp; more\n');
    expect(textarea((await web.get('/alice/app/-/issues/new?issuable_template=')).body, 'issue-description')).toBe('');
    expect(textarea((await web.get('/alice/app/-/issues/new?issuable_template=..%2Fsecret')).body, 'issue-description')).toBe('');
    const incident = await web.get('/alice/app/-/issues/new?issue_type=incident&issuable_template=Feature%20request');
    expect(textarea(incident.body, 'issue-description')).toBe('What should it do?\n');
    expect(incident.body).toContain('<input type="hidden" name="issue_type" value="incident">');
  });

  it('keeps the posted description when the form comes back with an error', async () => {
    const web = await signedIn(alice);
    const again = await web.post('/alice/app/-/issues/new', { title: ' ', description: 'my own words' });
    expect(again.statusCode).toBe(400);
    expect(textarea(again.body, 'issue-description')).toBe('my own words');
  });

  it('offers nothing without templates, or to those who may not read the code', async () => {
    const none = await (await signedIn(alice)).get('/alice/empty/-/issues/new');
    expect(none.statusCode).toBe(200);
    expect(none.body).not.toContain('issuable-template');
    const guestPage = await (await signedIn(guest)).get('/alice/secret/-/issues/new?issuable_template=Bug');
    expect(guestPage.statusCode).toBe(200);
    expect(guestPage.body).not.toContain('issuable-template');
    expect(textarea(guestPage.body, 'issue-description')).toBe('');
  });
});

describe('the new merge request page', () => {
  const form = (source: string, extra = '') => `/alice/app/-/merge_requests/new?merge_request%5Bsource_branch%5D=${source}&merge_request%5Btarget_branch%5D=main${extra}`;

  it('fills an empty description with Default, keeping the branches in the template form', async () => {
    const page = await (await signedIn(alice)).get(form('plain'));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<option value="Default" selected>Default</option>');
    expect(textarea(page.body, 'mr-description')).toBe('Closes #\n');
    expect(page.body).toMatch(/<form method="get" action="\/alice\/app\/-\/merge_requests\/new" id="issuable-template-form"><input type="hidden" name="merge_request\[source_branch\]" value="plain"><input type="hidden" name="merge_request\[target_branch\]" value="main"><\/form>/);
  });

  it("keeps the only commit's body over Default, and takes the template issuable_template names", async () => {
    const web = await signedIn(alice);
    expect(textarea((await web.get(form('explained'))).body, 'mr-description')).toBe('Because two is needed.');
    const change = await web.get(form('explained', '&issuable_template=Change'));
    expect(change.body).toContain('<option value="Change" selected>Change</option>');
    expect(textarea(change.body, 'mr-description')).toBe('## What changes\n');
  });
});

describe("a new merge request's template variables", () => {
  it('fills the six GitLab fills for a merge request not yet created, empties its others, keeps unknown ones', { timeout: 60_000 }, async () => {
    const vars = await kiln.createProject(alice, 'vars', { visibility: 'public' });
    const template = 'From %{source_branch} into %{target_branch}.\n\n%{first_commit}\n\n%{first_multiline_commit}\n\n%{title}\n\n%{co_authored_by}\n\nAll:\n%{all_commits}\n%{unknown}\n';
    await commit(kiln, alice.token, vars.id, { branch: 'main', commit_message: 'template', actions: [create('.gitlab/merge_request_templates/Default.md', template)] });
    await branchWith(kiln, alice, vars.id, 'multi', [create('three.txt')], 'Add three');
    await commit(kiln, alice.token, vars.id, { branch: 'multi', commit_message: 'Tune three\n\nBecause tuning.', author_name: 'Carol', author_email: 'carol@example.com', actions: [{ action: 'update', file_path: 'three.txt', content: 'tuned\n' }] });
    const page = await (await signedIn(alice)).get('/alice/vars/-/merge_requests/new?merge_request%5Bsource_branch%5D=multi&merge_request%5Btarget_branch%5D=main');
    expect(page.statusCode).toBe(200);
    const unescaped = textarea(page.body, 'mr-description')!.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    // %{title} is one of GitLab's variables a new merge request does not fill: its line goes, with the blank line before it.
    // co_authored_by leaves out the creator's own commits (alice's).
    expect(unescaped).toBe('From multi into main.\n\nAdd three\n\nTune three\n\nBecause tuning.\n\nCo-authored-by: Carol <carol@example.com>\n\nAll:\n* Tune three\n\nBecause tuning.\n\n* Add three\n%{unknown}\n');
  });
});
