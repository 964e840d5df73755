// `rules:changes` (and `only:changes`) and `rules:exists` (issue 39): a push compares its
// before-SHA with the new head, `compare_to` a ref's commit; a new branch or the API has nothing to
// compare, so `changes` holds; `exists` globs the commit's tree. Globs are Ruby's fnmatch with
// FNM_PATHNAME | FNM_DOTMATCH | FNM_EXTGLOB, as GitLab matches them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, commit, create, update, type RepositoryWorld } from './repository-api-driver.js';
import { fnmatch } from '../../src/ci/config/glob.js';

let kiln: TestKiln;
let w: RepositoryWorld;

const CONFIG = `
docs:
  script: docs
  rules:
    - changes: ['docs/**/*', '*.md']
backend:
  script: be
  rules:
    - changes:
        paths: ['src/**/*.ts']
        compare_to: refs/heads/main
docker:
  script: docker
  rules:
    - exists: [Dockerfile]
yaml:
  script: y
  rules:
    - exists: ['**/*.{yml,yaml}']
nowhere:
  script: n
  rules:
    - exists: ['nothing/*']
legacy:
  script: l
  only:
    changes: [legacy/*]
always:
  script: a
`;

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
}, 60_000);

afterAll(async () => {
  await kiln?.close();
});

const api = (method: string, path: string, body?: unknown, token = w.maintainer.token) => kiln.api(method, `/projects/${w.project.id}${path}`, { token, body });
async function latestJobs(): Promise<string[]> {
  await kiln.worker.drain();
  const latest = (await api('GET', '/pipelines')).body[0];
  return ((await api('GET', `/pipelines/${latest.id}/jobs`)).body as any[]).map((job) => job.name).sort();
}

describe('fnmatch', () => {
  it("matches as Ruby's File.fnmatch with GitLab's flags", () => {
    const cases: Array<[string, string, boolean]> = [
      ['*.md', 'README.md', true], ['*.md', 'docs/a.md', false], ['**/*.md', 'docs/a/b.md', true], ['**/*.md', 'a.md', true],
      ['docs/**/*', 'docs/a/b.txt', true], ['docs/*', 'docs/a/b.txt', false], ['{src,lib}/*.ts', 'lib/x.ts', true], ['*.{js,ts}', 'x.rb', false],
      ['*', '.hidden', true], ['file[0-9].txt', 'file3.txt', true], ['file[!0-9].txt', 'file3.txt', false], ['a?c', 'abc', true], ['a?c', 'a/c', false],
      ['src/**', 'src/a/b', false], ['a.b', 'axb', false], ['**/**/**/**/**/**/x', `${'a/'.repeat(40)}y`, false],
    ];
    for (const [pattern, path, expected] of cases) expect([pattern, path, fnmatch(pattern, path)]).toEqual([pattern, path, expected]);
  });
});

describe('rules:changes and rules:exists', () => {
  it('a first push has nothing to compare: changes hold; exists looks at the tree', async () => {
    await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'CI', actions: [create('.gitlab-ci.yml', CONFIG), create('README.md', 'hi\n')] });
    expect(await latestJobs()).toEqual(['always', 'docs', 'legacy', 'yaml']);
  });

  it('a push runs the jobs whose changes it touched', async () => {
    await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'readme', actions: [update('README.md', 'hello\n')] });
    expect(await latestJobs()).toEqual(['always', 'docs', 'yaml']);
    await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'legacy', actions: [create('legacy/old.c', 'x\n')] });
    expect(await latestJobs()).toEqual(['always', 'legacy', 'yaml']);
  });

  it('compare_to counts from its ref; exists sees new files', async () => {
    await commit(kiln, w.maintainer.token, w.project.id, { branch: 'feature', start_branch: 'main', commit_message: 'backend', actions: [create('src/app/main.ts', 'x\n'), create('Dockerfile', 'FROM x\n')] });
    expect(await latestJobs()).toEqual(['always', 'backend', 'docker', 'docs', 'legacy', 'yaml']);
  });

  it("refuses a compare_to that names no commit with GitLab's error", async () => {
    await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'bad compare', actions: [update('.gitlab-ci.yml', 'job:\n  script: x\n  rules:\n    - changes:\n        paths: [a]\n        compare_to: nope\n')] });
    await kiln.worker.drain();
    const latest = (await api('GET', '/pipelines')).body[0];
    expect((await api('GET', `/pipelines/${latest.id}`)).body).toMatchObject({ status: 'failed', yaml_errors: 'rules:changes:compare_to is not a valid ref' });
    expect((await api('POST', '/pipeline', { ref: 'main' })).body).toEqual({ message: { base: ['rules:changes:compare_to is not a valid ref'] } });
  });
});

describe('rules:exists with project and ref', () => {
  it("looks at another project's files at a ref, as the pipeline's user, with GitLab's errors", { timeout: 90_000 }, async () => {
    const { ACCESS } = await import('../../src/platform/auth/access-levels.js');
    const other = await kiln.createProject(w.owner, 'exists-other', { namespace_id: w.group.id, visibility: 'private' });
    await kiln.addMember(w.owner, 'projects', other.id, w.maintainer, ACCESS.reporter);
    await commit(kiln, w.owner.token, other.id, { branch: 'main', commit_message: 'one', actions: [create('deploy/chart.yaml', 'x\n')] });
    await commit(kiln, w.owner.token, other.id, { branch: 'next', start_branch: 'main', commit_message: 'two', actions: [create('next.txt', 'x\n')] });
    const secret = await kiln.createProject(w.stranger, 'exists-secret', { visibility: 'private' });
    const ci = (project: string, ref = '') => `
chart:
  script: c
  rules:
    - exists:
        paths: ['deploy/*.yaml']
        project: ${project}
next:
  script: n
  rules:
    - exists:
        paths: [next.txt]
        project: $OTHER_PROJECT${ref}
variables: { OTHER_PROJECT: ${other.path_with_namespace} }
`;
    await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'exists project', actions: [update('.gitlab-ci.yml', ci(other.path_with_namespace))] });
    // The file's variables are expanded as in `if`; without a ref, the project's default branch (no next.txt).
    expect(await latestJobs()).toEqual(['chart']);
    await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'with ref', actions: [update('.gitlab-ci.yml', ci(other.path_with_namespace).replace('$OTHER_PROJECT', other.path_with_namespace).replace('        project: ' + other.path_with_namespace + '\nvariables', '        project: ' + other.path_with_namespace + '\n        ref: next\nvariables'))] });
    expect(await latestJobs()).toEqual(['chart', 'next']);
    const failed = async (content: string, message: string) => {
      await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'refused', actions: [update('.gitlab-ci.yml', content)] });
      await kiln.worker.drain();
      const latest = (await api('GET', '/pipelines')).body[0];
      expect((await api('GET', `/pipelines/${latest.id}`)).body).toMatchObject({ status: 'failed', yaml_errors: message });
    };
    await failed(ci('nobody/nothing'), 'rules:exists:project `nobody/nothing` is not a valid project path');
    await failed(ci(secret.path_with_namespace).replace('$OTHER_PROJECT', other.path_with_namespace), `rules:exists:project access denied to project \`${secret.path_with_namespace}\``);
    await failed('job:\n  script: x\n  rules:\n    - exists:\n        paths: [a]\n        project: ' + other.path_with_namespace + '\n        ref: gone\n', `rules:exists:ref \`gone\` is not a valid ref in project \`${other.path_with_namespace}\``);
  });
});
