// CI/CD variables (issue 39): the project, group and instance APIs with GitLab's validations and
// messages, values sealed at rest, and what a job gets: instance < group < project < pipeline, protected
// ones only on protected refs, environment scopes, and masked values replaced in the stored log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { repositoryWorld, commit, create, type RepositoryWorld } from './repository-api-driver.js';
import { appendMasked } from '../../src/ci/cicd-variables/mask-trace.js';
import { scopeMatches } from '../../src/ci/cicd-variables/variable-rules.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let admin: TestUser;

const CONFIG = `
variables: { LEVEL: yaml }
build:
  script: echo build
deploy:
  script: echo deploy
  environment: { name: production }
`;

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  admin = await kiln.createUser('ciadmin', { admin: true });
  await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'ci [skip ci]', actions: [create('.gitlab-ci.yml', CONFIG)] });
  await kiln.api('POST', `/projects/${w.project.id}/repository/branches`, { token: w.maintainer.token, body: { branch: 'feature', ref: 'main' } });
  await kiln.worker.drain();
});

afterAll(async () => {
  await kiln?.close();
});

const pv = (path = '') => `/projects/${w.project.id}/variables${path}`;

describe('POST /projects/:id/variables', () => {
  it('as a maintainer creates a variable and stores its value sealed', async () => {
    const created = await kiln.api('POST', pv(), { token: w.maintainer.token, body: { key: 'DEPLOY_TOKEN', value: 'abcdefgh1234', masked: true, protected: true, description: 'deploys' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ variable_type: 'env_var', key: 'DEPLOY_TOKEN', value: 'abcdefgh1234', protected: true, masked: true, raw: false, environment_scope: '*', description: 'deploys' });
    const row = await kiln.deps.db.selectFrom('ci_variables').select('value_sealed').where('key', '=', 'DEPLOY_TOKEN').executeTakeFirstOrThrow();
    expect(row.value_sealed).not.toContain('abcdefgh1234');
  });

  it('as a developer is 403, as a stranger 404', async () => {
    expect((await kiln.api('POST', pv(), { token: w.developer.token, body: { key: 'X', value: 'y' } })).status).toBe(403);
    expect((await kiln.api('GET', pv(), { token: w.developer.token })).status).toBe(403);
    expect((await kiln.api('GET', pv(), { token: w.stranger.token })).status).toBe(404);
  });

  it("answers GitLab's validation messages", async () => {
    const post = (body: unknown) => kiln.api('POST', pv(), { token: w.maintainer.token, body });
    expect((await post({ key: 'bad-key', value: 'x' })).body).toEqual({ message: { key: ["can contain only letters, digits and '_'."] } });
    expect((await post({ key: 'SHORT', value: 'short', masked: true })).body).toEqual({ message: { value: ['is invalid'] } });
    expect((await post({ key: 'SPACES', value: 'has spaces in it', masked: true })).body).toEqual({ message: { value: ['is invalid'] } });
    expect((await post({ key: 'DEPLOY_TOKEN', value: 'again' })).body).toEqual({ message: { key: ['(DEPLOY_TOKEN) has already been taken'] } });
    const wrongType = await post({ key: 'T', value: 'x', variable_type: 'yaml' });
    expect(wrongType.status).toBe(400);
    expect(JSON.stringify(wrongType.body)).toContain('variable_type');
    expect((await post({ key: 'NO_VALUE' })).status).toBe(400);
  });
});

describe('GET, PUT and DELETE /projects/:id/variables/:key', () => {
  it('tells scopes of one key apart by filter[environment_scope]', async () => {
    await kiln.api('POST', pv(), { token: w.maintainer.token, body: { key: 'TARGET', value: 'everywhere' } });
    await kiln.api('POST', pv(), { token: w.maintainer.token, body: { key: 'TARGET', value: 'prod', environment_scope: 'production' } });
    const both = await kiln.api('GET', pv('/TARGET'), { token: w.maintainer.token });
    expect(both.status).toBe(409);
    expect(both.body).toEqual({ message: "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'" });
    const one = await kiln.api('GET', `${pv('/TARGET')}?filter[environment_scope]=production`, { token: w.maintainer.token });
    expect(one.body).toMatchObject({ key: 'TARGET', value: 'prod', environment_scope: 'production' });
    const updated = await kiln.api('PUT', pv('/TARGET'), { token: w.maintainer.token, body: { value: 'production!', filter: { environment_scope: 'production' } } });
    expect(updated.body).toMatchObject({ value: 'production!', environment_scope: 'production' });
    expect((await kiln.api('GET', `${pv('/TARGET')}?filter[environment_scope]=*`, { token: w.maintainer.token })).body.value).toBe('everywhere');
  });

  it('refuses to mask a value that cannot be masked on update', async () => {
    const put = await kiln.api('PUT', `${pv('/TARGET')}?filter[environment_scope]=*`, { token: w.maintainer.token, body: { masked: true, value: 'no' } });
    expect(put.body).toEqual({ message: { value: ['is invalid'] } });
  });

  it('deletes, then answers 404 Variable Not Found', async () => {
    await kiln.api('POST', pv(), { token: w.maintainer.token, body: { key: 'GONE', value: 'soon' } });
    expect((await kiln.api('DELETE', pv('/GONE'), { token: w.maintainer.token })).status).toBe(204);
    const missing = await kiln.api('GET', pv('/GONE'), { token: w.maintainer.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Variable Not Found' });
    expect((await kiln.api('PUT', pv('/GONE'), { token: w.maintainer.token, body: { value: 'x' } })).status).toBe(404);
  });
});

describe('/groups/:id/variables and /admin/ci/variables', () => {
  it('lets the group owner manage group variables, not a project maintainer', async () => {
    const path = `/groups/${w.group.id}/variables`;
    expect((await kiln.api('POST', path, { token: w.owner.token, body: { key: 'LEVEL', value: 'group' } })).status).toBe(201);
    expect((await kiln.api('POST', path, { token: w.owner.token, body: { key: 'GROUP_ONLY', value: 'g', variable_type: 'file' } })).body).toMatchObject({ variable_type: 'file', environment_scope: '*' });
    // The project's Maintainer reads the group through the project (has_projects), not its variables.
    expect((await kiln.api('GET', path, { token: w.maintainer.token })).status).toBe(403);
    expect((await kiln.api('GET', path, { token: w.owner.token })).body.map((variable: any) => variable.key)).toEqual(['LEVEL', 'GROUP_ONLY']);
  });

  it('lets administrators manage instance variables, without environment scope', async () => {
    const created = await kiln.api('POST', '/admin/ci/variables', { token: admin.token, body: { key: 'LEVEL', value: 'instance' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ variable_type: 'env_var', key: 'LEVEL', value: 'instance', protected: false, masked: false, raw: false, description: null });
    await kiln.api('POST', '/admin/ci/variables', { token: admin.token, body: { key: 'INSTANCE_ONLY', value: 'i' } });
    expect((await kiln.api('GET', '/admin/ci/variables', { token: w.owner.token })).status).toBe(403);
    expect((await kiln.api('GET', '/admin/ci/variables/LEVEL', { token: admin.token })).body.value).toBe('instance');
  });
});

describe('what a job gets', () => {
  let runnerToken: string;

  async function jobsOf(ref: string, variables: Array<{ key: string; value: string }> = []) {
    if (!runnerToken) {
      const registration = await kiln.api('POST', `/projects/${w.project.id}/runners/reset_registration_token`, { token: w.maintainer.token });
      runnerToken = (await kiln.request('POST', '/api/v4/runners', { body: { token: registration.body.token } })).json().token;
    }
    const pipeline = await kiln.api('POST', `/projects/${w.project.id}/pipeline`, { token: w.maintainer.token, body: { ref, variables } });
    expect(pipeline.status).toBe(201);
    const jobs: Record<string, any> = {};
    // The runner takes the oldest pending job: this pipeline's, since the push made a skipped one.
    for (let i = 0; i < 2; i++) {
      const answer = await kiln.request('POST', '/api/v4/jobs/request', { body: { token: runnerToken } });
      expect(answer.statusCode).toBe(201);
      const job = answer.json();
      jobs[job.job_info.name] = job;
    }
    return jobs;
  }
  const values = (job: any) => job.variables.filter((variable: any) => variable.key !== 'CI_JOB_TOKEN').reduce((all: Record<string, string[]>, variable: any) => ({ ...all, [variable.key]: [...(all[variable.key] ?? []), variable.value] }), {});
  const last = (job: any, key: string) => (values(job)[key] ?? []).at(-1);

  it('orders instance < group < project < pipeline, protected only on a protected ref', async () => {
    await kiln.api('POST', '/projects/' + w.project.id + '/protected_branches', { token: w.maintainer.token, body: { name: 'main' } });
    await kiln.api('POST', pv(), { token: w.maintainer.token, body: { key: 'LEVEL', value: 'project', environment_scope: 'production' } });
    const main = await jobsOf('main');
    expect(values(main.build).LEVEL).toEqual(['yaml', 'instance', 'group']);
    expect(values(main.deploy).LEVEL).toEqual(['yaml', 'instance', 'group', 'project']);
    expect(last(main.build, 'DEPLOY_TOKEN')).toBe('abcdefgh1234');
    expect(main.build.variables.find((variable: any) => variable.key === 'DEPLOY_TOKEN')).toMatchObject({ public: false, masked: true, file: false });
    expect(main.build.variables.find((variable: any) => variable.key === 'GROUP_ONLY')).toMatchObject({ file: true, value: 'g' });
    expect(last(main.build, 'INSTANCE_ONLY')).toBe('i');
    expect(last(main.build, 'TARGET')).toBe('everywhere');
    expect(values(main.deploy).TARGET).toEqual(['everywhere', 'production!']);

    const feature = await jobsOf('feature', [{ key: 'LEVEL', value: 'pipeline' }]);
    expect(values(feature.build).DEPLOY_TOKEN).toBeUndefined();
    expect(values(feature.deploy).LEVEL).toEqual(['yaml', 'instance', 'group', 'project', 'pipeline']);
  });

  it('replaces masked values in the stored log, also when split across appends', async () => {
    const main = await jobsOf('main');
    const job = main.build;
    const patch = (start: number, text: string) =>
      kiln.app.inject({ method: 'PATCH', url: `/api/v4/jobs/${job.id}/trace`, payload: Buffer.from(text), headers: { 'content-type': 'text/plain', 'job-token': job.token, 'content-range': `${start}-${start + text.length - 1}` } });
    expect((await patch(0, 'token abcdefgh1234 and abcd')).statusCode).toBe(202);
    const second = await patch(27, 'efgh1234 end\n');
    expect(second.statusCode).toBe(202);
    expect(second.headers.range).toBe('0-40');
    const trace = await kiln.request('GET', `/api/v4/projects/${w.project.id}/jobs/${job.id}/trace`, { token: w.reporter.token });
    expect(trace.body).toBe('token [MASKED] and [MASKED] end\n');
  });
});

describe('masking and scopes', () => {
  it('masks every occurrence at or after the append point', () => {
    expect(appendMasked(Buffer.from('xx sec'), Buffer.from('ret99 secret99'), ['secret99']).toString()).toBe('xx [MASKED] [MASKED]');
    expect(appendMasked(Buffer.from(''), Buffer.from('nothing'), []).toString()).toBe('nothing');
  });

  it('matches environment scopes with wildcards', () => {
    expect(scopeMatches('*', null)).toBe(true);
    expect(scopeMatches('review/*', 'review/app')).toBe(true);
    expect(scopeMatches('review/*', null)).toBe(false);
    expect(scopeMatches('production', 'staging')).toBe(false);
  });
});
