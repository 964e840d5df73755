// `include` breadth (issue 39): `local` wildcards as GitLab expands them (`*` within a folder, `**`
// across folders), `spec:inputs` headers with `include:inputs` (types, defaults, options, regex,
// `$[[ inputs.x ]]` in keys and values, functions) and a project's own CI/CD components, with
// GitLab's messages when something is wrong; checked through the project lint and a pushed pipeline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, commit, create, update, type RepositoryWorld } from './repository-api-driver.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let components: any;
let fqdn: string;

const DEPLOY = `spec:
  inputs:
    environment:
      options: [staging, production]
    stage:
      default: test
    replicas:
      type: number
      default: 1
    tags:
      type: array
      default: [linux]
    version:
      regex: ^v\\d+$
      default: v1
---
"deploy-$[[ inputs.environment ]]":
  stage: $[[ inputs.stage ]]
  script:
    - deploy --replicas $[[ inputs.replicas ]] --to $[[ inputs.environment | truncate(0,4) ]]
  tags: $[[ inputs.tags ]]
  variables:
    VERSION: $[[ inputs.version ]]
`;

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  fqdn = new URL(kiln.config.baseUrl).host;
  components = await kiln.createProject(w.owner, 'components', { namespace_id: w.group.id, visibility: 'private' });
  await kiln.addMember(w.owner, 'projects', components.id, w.maintainer, ACCESS.reporter);
  await commit(kiln, w.owner.token, components.id, {
    branch: 'main', commit_message: 'components',
    actions: [
      create('templates/lint.yml', 'spec:\n  inputs:\n    level:\n      default: strict\n---\nlint-$[[ inputs.level ]]:\n  script: lint\n'),
      create('templates/scan/template.yml', 'scan:\n  script: scan\n'),
    ],
  });
  expect((await kiln.api('POST', `/projects/${components.id}/repository/tags`, { token: w.owner.token, body: { tag_name: 'v1.0.0', ref: 'main' } })).status).toBe(201);
  await commit(kiln, w.maintainer.token, w.project.id, {
    branch: 'main', commit_message: 'CI pieces',
    actions: [
      create('configs/a.yml', 'job-a:\n  script: a\n'),
      create('configs/b.yaml', 'job-b:\n  script: b\n'),
      create('configs/sub/c.yml', 'job-c:\n  script: c\n'),
      create('configs/readme.md', '# not YAML\n'),
      create('templates/deploy.yml', DEPLOY),
    ],
  });
}, 120_000);

afterAll(async () => {
  await kiln?.close();
});

const lint = async (content: string) => (await kiln.api('POST', `/projects/${w.project.id}/ci/lint`, { token: w.maintainer.token, body: { content, include_jobs: true } })).body;
const jobNames = async (content: string) => {
  const body = await lint(content);
  expect(body.errors).toEqual([]);
  return (body.jobs as any[]).map((job) => job.name).sort();
};
const errors = async (content: string) => (await lint(content)).errors;

describe('local wildcards', () => {
  it('`*` stays within the folder, `**` crosses folders, `**/` only below it', async () => {
    expect(await jobNames('include: configs/*.yml')).toEqual(['job-a']);
    expect(await jobNames('include:\n  - local: /configs/**.yml\n  - local: configs/*.yaml')).toEqual(['job-a', 'job-b', 'job-c']);
    expect(await jobNames('include: configs/**/*.yml\nown:\n  script: x')).toEqual(['job-c', 'own']);
    // No file matches: nothing is included (GitLab's expansion is empty), the rest stands.
    expect(await jobNames('include: nothing/*.yml\nown:\n  script: x')).toEqual(['own']);
    const body = await lint('include: configs/**.yml');
    expect(body.includes.map((include: any) => [include.type, include.location])).toEqual([['local', 'configs/a.yml'], ['local', 'configs/sub/c.yml']]);
  });
});

describe('spec:inputs', () => {
  it('interpolates the given inputs and the defaults, keeping an input that is a whole value typed', async () => {
    const body = await lint('include:\n  - local: templates/deploy.yml\n    inputs:\n      environment: production\n      replicas: 3\n');
    expect(body.errors).toEqual([]);
    expect(body.jobs.map((job: any) => [job.name, job.stage, job.script, job.tag_list])).toEqual([['deploy-production', 'test', ['deploy --replicas 3 --to prod'], ['linux']]]);
    expect(body.merged_yaml).toContain('VERSION: v1');
  });

  it("answers GitLab's messages for inputs that are missing, unknown, of the wrong type or not allowed", async () => {
    const deploy = (inputs: string) => `include:\n  - local: templates/deploy.yml\n    inputs:\n${inputs}`;
    expect(await errors('include:\n  - local: templates/deploy.yml\n')).toEqual(['`templates/deploy.yml`: `environment` input: required value has not been provided']);
    expect(await errors(deploy('      environment: staging\n      colour: red\n'))).toEqual(['`templates/deploy.yml`: unknown input arguments: colour']);
    expect(await errors(deploy('      environment: qa\n'))).toEqual(['`templates/deploy.yml`: `environment` input: `qa` cannot be used because it is not in the list of allowed options']);
    expect(await errors(deploy('      environment: staging\n      replicas: many\n'))).toEqual(['`templates/deploy.yml`: `replicas` input: provided value is not a number']);
    expect(await errors(deploy('      environment: staging\n      tags: linux\n'))).toEqual(['`templates/deploy.yml`: `tags` input: provided value is not an array']);
    expect(await errors(deploy('      environment: staging\n      version: "2"\n'))).toEqual(['`templates/deploy.yml`: `version` input: provided value does not match required RegEx pattern']);
    expect(await errors('include:\n  - local: configs/a.yml\n    inputs:\n      x: 1\n')).toEqual(['`configs/a.yml`: Given inputs not defined in the `spec` section of the included configuration file']);
  });

  it("applies to the pipeline's own file (defaults), with GitLab's interpolation errors", async () => {
    expect(await jobNames('spec:\n  inputs:\n    name:\n      default: build\n---\n$[[ inputs.name ]]-job:\n  script: make\n')).toEqual(['build-job']);
    expect(await errors('spec:\n  inputs:\n    name:\n      default: x\n---\njob:\n  script: $[[ inputs.other ]]\n')).toEqual(['unknown interpolation key: `other`']);
    expect(await errors('spec:\n  inputs:\n    name:\n      default: x\n---\njob:\n  script: $[[ inputs.name | shout ]]\n')).toEqual([
      'no function matching `shout`: check that the function name, arguments, and types are correct',
    ]);
    expect(await errors('spec:\n  inputs:\n    flag:\n      type: boolean\n      default: maybe\n---\njob:\n  script: x\n')).toEqual(['`flag` input: default value is not a boolean']);
    expect(await errors('spec:\n  inputs:\n    n:\n      type: integer\n---\njob:\n  script: x\n')).toEqual(['unknown input specification for `n` (valid types: array, boolean, number, string)']);
    expect(await errors('spec:\n  arguments: {}\n---\njob:\n  script: x\n')).toEqual(['header:spec config contains unknown keys: arguments']);
    // Without a header, `$[[ ]]` is plain text.
    expect((await lint('job:\n  script: echo $[[ inputs.x ]]\n')).errors).toEqual([]);
  });
});

describe('component', () => {
  it("includes a project's component at a tag, a branch or a commit, with its inputs", async () => {
    const path = `${fqdn}/${components.path_with_namespace}`;
    expect(await jobNames(`include:\n  - component: ${path}/lint@v1.0.0\n    inputs:\n      level: loose\n`)).toEqual(['lint-loose']);
    expect(await jobNames('include:\n  - component: $CI_SERVER_FQDN/' + `${components.path_with_namespace}/scan@main\n`)).toEqual(['scan']);
    const body = await lint(`include:\n  - component: ${path}/lint@main\n`);
    expect(body.includes[0]).toMatchObject({ type: 'component', location: `${path}/lint@main`, raw: null, context_project: w.project.path_with_namespace });
  });

  it("answers GitLab's messages for a component it cannot use", async () => {
    const path = `${fqdn}/${components.path_with_namespace}`;
    expect(await errors(`include:\n  - component: ${path}/nope@main\n`)).toEqual([`Component '${path}/nope@main' - content not found`]);
    expect(await errors(`include:\n  - component: ${path}/lint@~latest\n`)).toEqual([
      `Component '${path}/lint@~latest' - The ~latest version reference is not supported for non-catalog resources. Use a tag, branch, or commit SHA instead.`,
    ]);
    expect(await errors('include:\n  - component: gitlab.com/org/project/lint@1.0.0\n')).toEqual(["Component 'gitlab.com/org/project/lint@1.0.0' - the component path is not supported"]);
    expect(await errors(`include:\n  - component: ${fqdn}/nobody/nothing/lint@main\n`)).toEqual([
      `Component '${fqdn}/nobody/nothing/lint@main' - project does not exist or you don't have sufficient permissions`,
    ]);
    const global = await kiln.api('POST', '/ci/lint', { token: w.maintainer.token, body: { content: `include:\n  - component: ${path}/lint@main\n` } });
    expect(global.body.errors).toEqual(['Unable to use components outside of a project context']);
  });
});

describe('a pushed pipeline', () => {
  it('runs the jobs of wildcard, input and component includes', { timeout: 90_000 }, async () => {
    const ci = `include:\n  - local: configs/*.yml\n  - local: templates/deploy.yml\n    inputs: { environment: staging }\n  - component: $CI_SERVER_FQDN/${components.path_with_namespace}/scan@v1.0.0\n`;
    await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'CI', actions: [create('.gitlab-ci.yml', ci)] });
    await kiln.worker.drain();
    const [pipeline] = (await kiln.api('GET', `/projects/${w.project.id}/pipelines`, { token: w.maintainer.token })).body;
    expect(pipeline).toMatchObject({ source: 'push', status: 'pending' });
    const jobs = (await kiln.api('GET', `/projects/${w.project.id}/pipelines/${pipeline.id}/jobs`, { token: w.maintainer.token })).body as any[];
    expect(jobs.map((job) => job.name).sort()).toEqual(['deploy-staging', 'job-a', 'scan']);
    await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'broken', actions: [update('.gitlab-ci.yml', 'include:\n  - local: templates/deploy.yml\n')] });
    await kiln.worker.drain();
    const [latest] = (await kiln.api('GET', `/projects/${w.project.id}/pipelines`, { token: w.maintainer.token })).body;
    expect((await kiln.api('GET', `/projects/${w.project.id}/pipelines/${latest.id}`, { token: w.maintainer.token })).body).toMatchObject({
      status: 'failed', yaml_errors: '`templates/deploy.yml`: `environment` input: required value has not been provided',
    });
  });
});
