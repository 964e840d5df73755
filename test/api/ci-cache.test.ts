// `cache:` (issue 39): checked with the lint, and handed to the runner in GitLab's job payload shape:
// `key:files` made from the last commits of those files, every key suffixed after the ref's
// protection (main is protected, a topic branch is not), `unprotect` giving even a protected ref the `-non_protected` key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, commit, create, type RepositoryWorld } from './repository-api-driver.js';
import { parseCiConfig } from '../../src/ci/config/parse-config.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let runnerToken: string;

const CONFIG = `
default:
  cache: { key: deps, paths: [node_modules/] }
build:
  script: make
  cache:
    - key: { files: [package-lock.json], prefix: npm }
      paths: [.npm/]
      policy: pull
      when: always
      fallback_keys: [npm-main]
    - key: shared
      paths: [vendor/]
      untracked: true
      unprotect: true
test:
  script: test
`;

beforeAll(async () => {
  kiln = await testKiln({ ciLongPollMs: 0 });
  w = await repositoryWorld(kiln);
  const runner = await kiln.api('POST', '/user/runners', { token: w.maintainer.token, body: { runner_type: 'project_type', project_id: w.project.id, run_untagged: true } });
  runnerToken = runner.body.token;
}, 60_000);

afterAll(async () => {
  await kiln?.close();
});

async function takeAll(): Promise<Map<string, any>> {
  const jobs = new Map<string, any>();
  for (;;) {
    const response = await kiln.request('POST', '/api/v4/jobs/request', { body: { token: runnerToken } });
    if (response.statusCode !== 201) return jobs;
    const job = response.json();
    jobs.set(`${job.git_info.ref}:${job.job_info.name}`, job);
    await kiln.request('PUT', `/api/v4/jobs/${job.id}`, { body: { token: job.token, state: 'success' } });
  }
}

describe('cache', () => {
  it("checks the keyword in GitLab's words", () => {
    const errors = (yaml: string) => parseCiConfig(yaml).errors;
    expect(errors('job:\n  script: x\n  cache: { key: a/b }')).toEqual(['jobs:job:cache:key config cannot contain the "/" character']);
    expect(errors('job:\n  script: x\n  cache: [{key: a}, {key: b}, {key: c}, {key: d}, {key: e}]')).toEqual(['jobs:job:cache config no more than 4 caches can be created']);
    expect(errors('job:\n  script: x\n  cache: { policy: sometimes }')).toEqual(['jobs:job:cache policy should be pull-push, push, or pull, or a variable']);
  });

  it('hands the runner its caches with their keys made and suffixed', async () => {
    const lock = await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'lock', actions: [create('package-lock.json', '{}\n')] });
    await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'CI', actions: [create('.gitlab-ci.yml', CONFIG)] });
    await commit(kiln, w.maintainer.token, w.project.id, { branch: 'topic', start_branch: 'main', commit_message: 'topic', actions: [create('topic.txt', 'x\n')] });
    await kiln.worker.drain();
    const jobs = await takeAll();
    const npm = `npm-${createHash('sha1').update(lock.id).digest('hex')}`;
    expect(jobs.get('main:build').cache).toEqual([
      { key: `${npm}-protected`, untracked: false, paths: ['.npm/'], policy: 'pull', when: 'always', fallback_keys: ['npm-main-protected'] },
      { key: 'shared-non_protected', untracked: true, paths: ['vendor/'], policy: 'pull-push', when: 'on_success', fallback_keys: [] },
    ]);
    expect(jobs.get('main:test').cache).toEqual([{ key: 'deps-protected', untracked: false, paths: ['node_modules/'], policy: 'pull-push', when: 'on_success', fallback_keys: [] }]);
    expect(jobs.get('topic:test').cache[0].key).toBe('deps-non_protected');
    expect(jobs.get('topic:build').cache[0].key).toBe(`${npm}-non_protected`);
  });
});
