// A project's `ci_config_path`: pipelines read the configuration from that file, or from another
// project's file (`file@group/project[:ref]`), and jobs see it as CI_CONFIG_PATH.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, commit, create, type RepositoryWorld } from './repository-api-driver.js';
import { ciConfigPath } from '../../src/ci/pipelines/config-path.js';
import { projectAttrs, projectForHook } from '../../src/webhooks/payloads/common.js';

let kiln: TestKiln;
let w: RepositoryWorld;

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
});

afterAll(async () => {
  await kiln?.close();
});

const jobNames = async (projectId: number, pipelineId: number) =>
  (await kiln.apiAs(w.maintainer, 'GET', `/projects/${projectId}/pipelines/${pipelineId}/jobs`)).map((job: { name: string }) => job.name).sort();

describe('ci_config_path', () => {
  it('reads the pipeline from the configured file of the commit, and gives jobs CI_CONFIG_PATH', async () => {
    await commit(kiln, w.maintainer.token, w.project.id, {
      branch: 'main',
      commit_message: 'two configurations',
      actions: [create('.gitlab-ci.yml', 'default-job:\n  script: echo default\n'), create('ci/pipeline.yml', 'configured-job:\n  script: echo "$CI_CONFIG_PATH"\n')],
    });
    const updated = await kiln.apiAs(w.maintainer, 'PUT', `/projects/${w.project.id}`, { ci_config_path: 'ci/pipeline.yml' });
    expect(updated.ci_config_path).toBe('ci/pipeline.yml');
    const pipeline = await kiln.apiAs(w.maintainer, 'POST', `/projects/${w.project.id}/pipeline`, { ref: 'main' });
    expect(await jobNames(w.project.id, pipeline.id)).toEqual(['configured-job']);
    // The predefined CI_CONFIG_PATH (ci/variables.ts) is this path.
    const row = await kiln.deps.db.selectFrom('projects').select('settings').where('id', '=', w.project.id).executeTakeFirstOrThrow();
    expect(ciConfigPath(row)).toBe('ci/pipeline.yml');
    // Hook payloads' project shows it as set.
    expect(projectAttrs(kiln.deps, (await projectForHook(kiln.deps, w.project.id))!).ci_config_path).toBe('ci/pipeline.yml');

    // A file the commit does not have: GitLab's message, no pipeline.
    await kiln.apiAs(w.maintainer, 'PUT', `/projects/${w.project.id}`, { ci_config_path: 'ci/missing.yml' });
    const missing = await kiln.api('POST', `/projects/${w.project.id}/pipeline`, { token: w.maintainer.token, body: { ref: 'main' } });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain('Missing CI config file');

    // Blank again: `.gitlab-ci.yml`.
    await kiln.apiAs(w.maintainer, 'PUT', `/projects/${w.project.id}`, { ci_config_path: '' });
    const plain = await kiln.apiAs(w.maintainer, 'POST', `/projects/${w.project.id}/pipeline`, { ref: 'main' });
    expect(await jobNames(w.project.id, plain.id)).toEqual(['default-job']);
  });

  it("refuses a path that is absolute or climbs out of the repository, in GitLab's message", async () => {
    for (const path of ['/etc/passwd', 'ci/../../secrets.yml']) {
      const refused = await kiln.api('PUT', `/projects/${w.project.id}`, { token: w.maintainer.token, body: { ci_config_path: path } });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toEqual({ ci_config_path: ['cannot include leading slash or directory traversal.'] });
    }
    const shown = await kiln.apiAs(w.maintainer, 'GET', `/projects/${w.project.id}`);
    expect(shown.ci_config_path).not.toMatch(/passwd|secrets/);
  });

  it("reads another project's file (file@group/project:ref) with the pipeline user's access", async () => {
    const shared = await kiln.apiAs(w.maintainer, 'POST', '/projects', { name: 'ci-shared-config', initialize_with_readme: true });
    await commit(kiln, w.maintainer.token, shared.id, { branch: 'main', commit_message: 'shared', actions: [create('templates/ci.yml', 'shared-job:\n  script: echo shared\n')] });
    await kiln.apiAs(w.maintainer, 'PUT', `/projects/${w.project.id}`, { ci_config_path: `templates/ci.yml@${shared.path_with_namespace}:main` });
    const pipeline = await kiln.apiAs(w.maintainer, 'POST', `/projects/${w.project.id}/pipeline`, { ref: 'main' });
    expect(await jobNames(w.project.id, pipeline.id)).toEqual(['shared-job']);

    // A Developer of this project who may not read the private shared project gets no pipeline from it.
    const refused = await kiln.api('POST', `/projects/${w.project.id}/pipeline`, { token: w.developer.token, body: { ref: 'main' } });
    expect(refused.status).toBe(400);
    expect(refused.body.message.base[0]).toContain(`Project \`${shared.path_with_namespace}\` not found or access denied!`);
    await kiln.apiAs(w.maintainer, 'PUT', `/projects/${w.project.id}`, { ci_config_path: '' });
  });
});
