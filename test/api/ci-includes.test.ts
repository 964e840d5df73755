// `include:` (issue 39): local files of the pipeline's commit and files of other projects the
// pipeline's user may read, nested and deep-merged as GitLab merges them (the including file wins),
// listed by the project lint; Kiln's own templates by their key (GitLab's names unknown), remote
// files refused (no outbound fetch), and
// GitLab's messages for missing files, refused projects, unknown refs and include loops.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';
import { repositoryWorld, commit, create, update, type RepositoryWorld } from './repository-api-driver.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let shared: any;
let secret: any;

const ROOT = `
include:
  - local: /ci/build.yml
  - project: SHARED
    file: templates/test.yml
    ref: main
variables: { OWN: "1" }
build:
  script: overridden
`;

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  shared = await kiln.createProject(w.owner, 'shared', { namespace_id: w.group.id, visibility: 'private' });
  await kiln.addMember(w.owner, 'projects', shared.id, w.maintainer, ACCESS.reporter);
  await commit(kiln, w.owner.token, shared.id, { branch: 'main', commit_message: 'templates', actions: [create('templates/test.yml', 'test:\n  stage: test\n  script: run-tests\n')] });
  secret = await kiln.createProject(w.stranger, 'secret', { visibility: 'private' });
  await commit(kiln, w.stranger.token, secret.id, { branch: 'main', commit_message: 'x', actions: [create('x.yml', 'x:\n  script: x\n')] });
  await commit(kiln, w.maintainer.token, w.project.id, {
    branch: 'main', commit_message: 'CI with includes',
    actions: [
      create('ci/build.yml', 'include: ci/nested.yml\nstages: [build, test]\nbuild:\n  stage: build\n  script: make\n  tags: [linux]\n'),
      create('ci/nested.yml', 'nested-job:\n  stage: test\n  script: nested\n'),
      create('loop/a.yml', 'include: loop/b.yml\n'),
      create('loop/b.yml', 'include: loop/a.yml\n'),
      create('.gitlab-ci.yml', ROOT.replace('SHARED', shared.path_with_namespace)),
    ],
  });
  await kiln.worker.drain();
}, 120_000);

afterAll(async () => {
  await kiln?.close();
});

const api = (method: string, path: string, body?: unknown, token = w.maintainer.token) => kiln.api(method, `/projects/${w.project.id}${path}`, { token, body });
const lint = async (content: string, token = w.maintainer.token) => (await api('POST', '/ci/lint', { content }, token)).body;

describe('include', () => {
  it('merges local and project files into the pipeline, nested, the including file winning', async () => {
    const pipelines = (await api('GET', '/pipelines')).body;
    expect(pipelines).toHaveLength(1);
    expect(pipelines[0]).toMatchObject({ status: 'pending', source: 'push' });
    const jobs = (await api('GET', `/pipelines/${pipelines[0].id}/jobs`)).body as any[];
    expect(jobs.map((job) => [job.name, job.stage]).sort()).toEqual([['build', 'build'], ['nested-job', 'test'], ['test', 'test']]);
    const build = jobs.find((job) => job.name === 'build');
    expect(build.tag_list).toEqual(['linux']);
    const options = await kiln.deps.db.selectFrom('ci_builds').select('options').where('id', '=', build.id).executeTakeFirstOrThrow();
    expect(JSON.parse(options.options!)).toMatchObject({ script: ['overridden'], variables: { OWN: '1' } });
  });

  it('are read by the lint page as by the lint API: the included jobs listed, a missing file refused', async () => {
    const web = new WebSession(kiln);
    await web.signIn(w.maintainer.username, w.maintainer.password);
    const page = `/${w.project.path_with_namespace}/-/ci/lint`;
    const valid = await web.post(page, { content: ROOT.replace('SHARED', shared.path_with_namespace) });
    expect(valid.statusCode).toBe(200);
    expect(valid.body).toContain('Syntax is correct.');
    expect(valid.body).toContain('<code>nested-job</code>');
    const missing = await web.post(page, { content: 'include: nope.yml\njob:\n  script: x' });
    expect(missing.body).toContain('Syntax is incorrect.');
    expect(missing.body).toContain('Local file `nope.yml` does not exist!');
  });

  it('lists what the project lint included, with their blob and raw URLs', async () => {
    const body = await lint(ROOT.replace('SHARED', shared.path_with_namespace));
    expect(body.valid).toBe(true);
    expect(body.merged_yaml).toContain('nested-job');
    expect(body.merged_yaml).not.toContain('include');
    const project = `${kiln.config.baseUrl}/${w.project.path_with_namespace}`;
    expect(body.includes.map((include: any) => [include.type, include.location, include.context_project])).toEqual([
      ['local', 'ci/build.yml', w.project.path_with_namespace],
      ['local', 'ci/nested.yml', w.project.path_with_namespace],
      ['file', 'templates/test.yml', w.project.path_with_namespace],
    ]);
    expect(body.includes[0].blob).toMatch(new RegExp(`^${project}/-/blob/[0-9a-f]{40}/ci/build.yml$`));
    expect(body.includes[2].extra).toEqual({ project: shared.path_with_namespace, ref: 'main' });
  });

  it("reads Kiln's own templates by the key GET /templates/gitlab_ci_ymls lists, the including file winning", { timeout: 60_000 }, async () => {
    const listed = (await kiln.api('GET', '/templates/gitlab_ci_ymls', { token: w.maintainer.token })).body as Array<{ key: string }>;
    expect(listed.map((template) => template.key)).toContain('Go');
    const body = await lint('include:\n  template: Go.gitlab-ci.yml\nbuild:\n  script: make\n');
    expect(body.errors).toEqual([]);
    expect(body.valid).toBe(true);
    // The template's test and build jobs, its build's script replaced by the including file's.
    expect(body.merged_yaml).toContain('go vet ./...');
    expect(body.merged_yaml).toContain('script: make');
    expect(body.merged_yaml).not.toContain('go build -o bin/app');
    expect(body.includes).toEqual([{ type: 'template', location: 'Go.gitlab-ci.yml', blob: null, raw: null, extra: {}, context_project: w.project.path_with_namespace, context_sha: expect.stringMatching(/^[0-9a-f]{40}$/) }]);
    // Keys are case-sensitive, as GitLab's template names are.
    expect((await lint('include:\n  template: go.gitlab-ci.yml\njob:\n  script: x')).errors).toEqual(['Included file `go.gitlab-ci.yml` is empty or does not exist!']);
  });

  it("answers GitLab's messages", { timeout: 60_000 }, async () => {
    const errors = async (content: string) => (await lint(content)).errors;
    expect(await errors('include: nope.yml\njob:\n  script: x')).toEqual(['Local file `nope.yml` does not exist!']);
    expect(await errors('include: notes.txt\njob:\n  script: x')).toEqual(['Included file `notes.txt` does not have YAML extension!']);
    expect(await errors('include: https://example.com/ci.yml\njob:\n  script: x')).toEqual(['Remote file `https://example.com/ci.yml` could not be fetched: Kiln does not fetch includes from other servers']);
    expect(await errors('include:\n  template: Auto-DevOps.gitlab-ci.yml\njob:\n  script: x')).toEqual(['Included file `Auto-DevOps.gitlab-ci.yml` is empty or does not exist!']);
    expect(await errors('include:\n  template: Auto-DevOps.yml\njob:\n  script: x')).toEqual(['Template file `Auto-DevOps.yml` is not a valid location!']);
    expect(await errors(`include:\n  project: ${secret.path_with_namespace}\n  file: x.yml\njob:\n  script: x`)).toEqual([`Project \`${secret.path_with_namespace}\` not found or access denied! Make sure any includes in the pipeline configuration are correctly defined.`]);
    expect(await errors(`include:\n  project: ${shared.path_with_namespace}\n  file: x.yml\n  ref: gone\njob:\n  script: x`)).toEqual([`Project \`${shared.path_with_namespace}\` reference \`gone\` does not exist!`]);
    expect(await errors(`include:\n  project: ${shared.path_with_namespace}\n  file: nope.yml\njob:\n  script: x`)).toEqual([`Project \`${shared.path_with_namespace}\` file \`nope.yml\` does not exist!`]);
    expect(await errors('include: loop/a.yml\njob:\n  script: x')).toEqual(['Maximum of 150 nested includes are allowed!']);
    expect(await errors('include:\n  local: a.yml\n  remote: https://example.com/b.yml\njob:\n  script: x')).toEqual(['Each include must use only one of: `local`, `project`, `remote`, `template`, `artifact`, `component`']);
    expect(await errors('include:\n  colour: red\njob:\n  script: x')).toEqual(['include config contains unknown keys: colour']);
    expect(await errors('include: 12\njob:\n  script: x')).toEqual(['include config should be an array or a string']);
    // Without a project there is no local file to read.
    const global = await kiln.api('POST', '/ci/lint', { token: w.maintainer.token, body: { content: 'include: ci/build.yml\njob:\n  script: x' } });
    expect(global.body.errors).toEqual(['Local file `ci/build.yml` does not have project!']);
  });

  it('fails a pushed pipeline whose include is broken, with the error as its yaml_errors', async () => {
    await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'break', actions: [update('.gitlab-ci.yml', 'include: ci/missing.yml\njob:\n  script: x\n')] });
    await kiln.worker.drain();
    const latest = (await api('GET', '/pipelines')).body[0];
    expect((await api('GET', `/pipelines/${latest.id}`)).body).toMatchObject({ status: 'failed', yaml_errors: 'Local file `ci/missing.yml` does not exist!' });
  });
});
