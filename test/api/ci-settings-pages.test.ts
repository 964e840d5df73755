// Settings › CI/CD and the CI lint page (issue 39): variables added and removed through the variables
// store (a masked value never shown, GitLab's validation messages on the form), a new runner
// registration token shown once in the registration commands and accepted by the runner API,
// trigger tokens made (shown once) and revoked, the schedules listed; Maintainers only, CSRF; the
// lint page's verdict, errors and jobs, escaped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let settings: string;

async function signedIn(user: TestUser) {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  settings = `/${w.project.path_with_namespace}/-/settings/ci_cd`;
});

afterAll(async () => {
  await kiln?.close();
});

describe('GET /:project/-/settings/ci_cd', () => {
  it('is for Maintainers: Developers are refused, strangers get 404, the sidebar links it', async () => {
    const maintainer = await signedIn(w.maintainer);
    const page = await maintainer.get(settings);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`href="${settings}" aria-current="page">CI/CD</a>`);
    expect(page.body).toContain('id="add-variable"');
    expect(page.body).toContain('id="runner-commands"');
    expect(page.body).toContain('id="add-trigger"');
    expect((await (await signedIn(w.developer)).get(settings)).statusCode).toBe(403);
    expect((await (await signedIn(w.developer)).get(`/${w.project.path_with_namespace}`)).body).not.toContain('/-/settings/ci_cd');
    expect((await (await signedIn(w.stranger)).get(settings)).statusCode).toBe(404);
  });
});

describe('variables', () => {
  it('adds a masked variable whose value is never shown, and a plain one shown escaped', async () => {
    const maintainer = await signedIn(w.maintainer);
    const masked = await maintainer.post(settings, { action: 'add_variable', key: 'DEPLOY_TOKEN', value: 'very-secret-value-123', masked: 'true', protected: 'true', expand: 'true' });
    expect(masked.statusCode).toBe(303);
    const plain = await maintainer.post(settings, { action: 'add_variable', key: 'GREETING', value: '<b>hello</b>', environment_scope: 'production' });
    expect(plain.statusCode).toBe(303);
    const page = await maintainer.get(settings);
    expect(page.body).not.toContain('very-secret-value-123');
    expect(page.body).toMatch(/data-variable="DEPLOY_TOKEN">.*Masked/s);
    expect(page.body).toContain('<code>&lt;b&gt;hello&lt;/b&gt;</code>');
    const api = await kiln.api('GET', `/projects/${w.project.id}/variables`, { token: w.maintainer.token });
    expect(api.body).toEqual([
      expect.objectContaining({ key: 'DEPLOY_TOKEN', value: 'very-secret-value-123', masked: true, protected: true, raw: false, environment_scope: '*' }),
      expect.objectContaining({ key: 'GREETING', value: '<b>hello</b>', masked: false, protected: false, raw: true, environment_scope: 'production' }),
    ]);
  });

  it("shows GitLab's validation messages without echoing a masked value", async () => {
    const maintainer = await signedIn(w.maintainer);
    const refused = await maintainer.post(settings, { action: 'add_variable', key: 'SHORT', value: 'abc', masked: 'true' });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('id="variable-errors"');
    expect(refused.body).toContain('value="SHORT"');
    expect(refused.body).not.toContain('>abc</textarea>');
    const taken = await maintainer.post(settings, { action: 'add_variable', key: 'GREETING', value: 'x', environment_scope: 'production' });
    expect(taken.statusCode).toBe(422);
    expect(taken.body).toContain('(GREETING) has already been taken');
    const bad = await maintainer.post(settings, { action: 'add_variable', key: 'not a key', value: 'x' });
    expect(bad.statusCode).toBe(422);
  });

  it('removes a variable; Developers and forged forms are refused', async () => {
    const rows = await kiln.deps.db.selectFrom('ci_variables').select(['id', 'key']).where('project_id', '=', w.project.id).execute();
    const greeting = rows.find((row) => row.key === 'GREETING')!;
    expect((await (await signedIn(w.developer)).post(settings, { action: 'remove_variable', variable_id: String(greeting.id) }, { csrfFrom: `/${w.project.path_with_namespace}` })).statusCode).toBe(403);
    const maintainer = await signedIn(w.maintainer);
    expect((await maintainer.post(settings, { action: 'remove_variable', variable_id: String(greeting.id), authenticity_token: 'forged' })).statusCode).toBe(422);
    const removed = await maintainer.post(settings, { action: 'remove_variable', variable_id: String(greeting.id) });
    expect(removed.statusCode).toBe(303);
    expect((await kiln.api('GET', `/projects/${w.project.id}/variables`, { token: w.maintainer.token })).body.map((row: any) => row.key)).toEqual(['DEPLOY_TOKEN']);
    expect((await maintainer.post(settings, { action: 'remove_variable', variable_id: String(greeting.id) })).statusCode).toBe(404);
  });
});

describe('editing a variable', () => {
  const editUrl = async (key: string) => {
    const row = await kiln.deps.db.selectFrom('ci_variables').select('id').where('project_id', '=', w.project.id).where('key', '=', key).executeTakeFirstOrThrow();
    return `${settings}/variables/${row.id}/edit`;
  };
  const stored = async () => (await kiln.api('GET', `/projects/${w.project.id}/variables/DEPLOY_TOKEN`, { token: w.maintainer.token })).body;

  it('never shows a masked value; an empty value keeps it while the rest changes', async () => {
    const url = await editUrl('DEPLOY_TOKEN');
    const maintainer = await signedIn(w.maintainer);
    expect((await maintainer.get(settings)).body).toContain(`href="${url}"`);
    const form = await maintainer.get(url);
    expect(form.statusCode).toBe(200);
    expect(form.body).not.toContain('very-secret-value-123');
    expect(form.body).toContain('id="variable-value-kept"');
    const kept = await maintainer.post(url, { value: '', variable_type: 'file', environment_scope: 'production', description: 'for <deploys>', masked: 'true', expand: 'true' });
    expect(kept.statusCode).toBe(303);
    expect(kept.headers.location).toBe(`${settings}#variables`);
    expect(await stored()).toMatchObject({ value: 'very-secret-value-123', variable_type: 'file', environment_scope: 'production', description: 'for <deploys>', protected: false, masked: true, raw: false });
    const changed = await maintainer.post(url, { value: 'another-secret-4567', environment_scope: 'production', masked: 'true' });
    expect(changed.statusCode).toBe(303);
    expect(await stored()).toMatchObject({ value: 'another-secret-4567', variable_type: 'env_var', raw: true });
    expect((await maintainer.get(url)).body).not.toContain('another-secret-4567');
  });

  it("answers GitLab's messages without echoing the value, and refuses Developers and other projects' variables", async () => {
    const url = await editUrl('DEPLOY_TOKEN');
    const maintainer = await signedIn(w.maintainer);
    const refused = await maintainer.post(url, { value: 'short!', environment_scope: 'production', masked: 'true' });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('value is invalid');
    expect(refused.body).not.toContain('short!');
    const scope = await maintainer.post(url, { value: '', environment_scope: 'no|pipes', masked: 'true' });
    expect(scope.statusCode).toBe(422);
    expect(scope.body).toContain('environment_scope can contain only');
    expect((await stored()).value).toBe('another-secret-4567');
    expect((await (await signedIn(w.developer)).get(url)).statusCode).toBe(403);
    const other = await kiln.createProject(w.maintainer, 'other-vars');
    expect((await maintainer.get(`/${other.path_with_namespace}/-/settings/ci_cd/variables/${/variables\/(\d+)/.exec(url)![1]}/edit`)).statusCode).toBe(404);
  });
});

describe('runners and triggers', () => {
  it('shows a new registration token once, in the commands, and a runner registers with it', async () => {
    const maintainer = await signedIn(w.maintainer);
    const reset = await maintainer.post(settings, { action: 'reset_registration_token' });
    expect(reset.statusCode).toBe(200);
    const token = /id="registration-token" readonly value="([^"]+)"/.exec(reset.body)![1];
    expect(reset.body).toContain(`--registration-token ${token}`);
    const registered = await kiln.request('POST', '/api/v4/runners', { body: { token, description: 'from the settings <page>' } });
    expect(registered.statusCode).toBe(201);
    const page = await maintainer.get(settings);
    expect(page.body).not.toContain(token);
    expect(page.body).toContain('from the settings &lt;page&gt;');
    expect(page.body).toContain('never_contacted'.replace('_', ' '));
  });

  it('makes a trigger token (shown once) and revokes it', async () => {
    const maintainer = await signedIn(w.maintainer);
    const made = await maintainer.post(settings, { action: 'add_trigger', description: 'nightly <deploy>' });
    expect(made.statusCode).toBe(200);
    const token = /id="trigger-token" readonly value="([^"]+)"/.exec(made.body)![1];
    expect(token).toMatch(/^glptt-/);
    const page = await maintainer.get(settings);
    expect(page.body).not.toContain(token);
    expect(page.body).toContain('nightly &lt;deploy&gt;');
    const id = /data-trigger="(\d+)"/.exec(page.body)![1];
    expect((await maintainer.post(settings, { action: 'revoke_trigger', trigger_id: id })).statusCode).toBe(303);
    expect((await kiln.api('GET', `/projects/${w.project.id}/triggers`, { token: w.maintainer.token })).body).toEqual([]);
  });

  it('lists the pipeline schedules', async () => {
    const made = await kiln.api('POST', `/projects/${w.project.id}/pipeline_schedules`, { token: w.maintainer.token, body: { description: 'Nightly <build>', ref: 'main', cron: '0 1 * * *' } });
    expect(made.status).toBe(201);
    const page = await (await signedIn(w.maintainer)).get(settings);
    expect(page.body).toContain('Nightly &lt;build&gt;');
    expect(page.body).toContain('<code>0 1 * * *</code>');
  });
});

describe('/:project/-/ci/lint', () => {
  const lint = () => `/${w.project.path_with_namespace}/-/ci/lint`;

  it('validates a configuration and lists its jobs, escaped', async () => {
    const reporter = await signedIn(w.reporter);
    expect((await reporter.get(lint())).statusCode).toBe(200);
    const valid = await reporter.post(lint(), { content: 'build:\n  script: make\n"<img src=x>":\n  stage: test\n  script: x\n  when: manual\n' });
    expect(valid.statusCode).toBe(200);
    expect(valid.body).toContain('data-valid="true"');
    expect(valid.body).toContain('Syntax is correct.');
    expect(valid.body).toContain('<code>&lt;img src=x&gt;</code>');
    expect(valid.body).not.toContain('<img src=x>');
    const invalid = await reporter.post(lint(), { content: 'job:\n  script: x\n  when: later' });
    expect(invalid.body).toContain('data-valid="false"');
    expect(invalid.body).toContain('jobs:job when should be one of: on_success, on_failure, always, manual, delayed');
    expect((await (await signedIn(w.stranger)).get(lint())).statusCode).toBe(404);
  });
});
