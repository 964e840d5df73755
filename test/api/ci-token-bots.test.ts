// Work done in the name of a project access token's bot after the fact (a job queued while its token
// was usable): once none of its tokens is usable (revoked or expired) the bot stays a member
// (revoke-resource-access-token.ts), yet it may no longer have a merge request pipeline made for it
// nor have `include:` read another project for it, as its schedules and trigger tokens run nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { repositoryWorld, commit, create, type RepositoryWorld } from './repository-api-driver.js';
import { branchWith, openMergeRequest } from './merge-requests-helpers.js';
import { includeReader } from '../../src/ci/pipelines/include-reader.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let fullPath: string;
const DAY = 24 * 3_600_000;
const MR_CONFIG = 'mr-test:\n  script: make test\n  rules:\n    - if: $CI_PIPELINE_SOURCE == "merge_request_event"\n';

async function bot(name: string, body: Record<string, unknown> = {}): Promise<TestUser & { tokenId: number }> {
  const made = await kiln.apiAs(w.owner, 'POST', `/projects/${w.project.id}/access_tokens`, { name, scopes: ['api', 'write_repository'], access_level: ACCESS.maintainer, ...body });
  const { username } = await kiln.apiAs(kiln.root, 'GET', `/users/${made.user_id}`);
  return { id: made.user_id, username, token: made.token, password: '', tokenId: made.id };
}

const revoke = async (owner: { tokenId: number }) => expect((await kiln.api('DELETE', `/projects/${w.project.id}/access_tokens/${owner.tokenId}`, { token: w.owner.token })).status).toBe(204);

/** The merge request pipelines of a merge request the bot opens, its token revoked (or not) before the queued job runs. */
async function mergeRequestPipelines(user: TestUser & { tokenId: number }, branch: string, revoked: boolean) {
  await branchWith(kiln, user, w.project.id, branch, [{ action: 'update', file_path: '.gitlab-ci.yml', content: MR_CONFIG }]);
  const mr = await openMergeRequest(kiln, user, w.project.id, { source_branch: branch });
  if (revoked) await revoke(user);
  await kiln.worker.drain();
  return kiln.deps.db.selectFrom('ci_pipelines').select('user_id').where('merge_request_id', '=', mr.id).where('source', '=', 'merge_request_event').execute();
}

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'ci [skip ci]', actions: [create('.gitlab-ci.yml', 'build:\n  script: echo hi\n')] });
  await kiln.worker.drain();
  fullPath = (await kiln.apiAs(w.owner, 'GET', `/projects/${w.project.id}`)).path_with_namespace;
});
afterAll(() => kiln?.close());

describe("a token bot's merge request pipelines", () => {
  it('are made while its token is usable', async () => {
    const live = await bot('mr-live');
    expect((await mergeRequestPipelines(live, 'bot-live', false)).map((row) => Number(row.user_id))).toEqual([live.id]);
  });

  it('are not made once its token is revoked, though it is still a Maintainer', async () => {
    const gone = await bot('mr-revoked');
    expect(await mergeRequestPipelines(gone, 'bot-revoked', true)).toEqual([]);
  });
});

describe("a token bot's include: reads of a project", () => {
  it('are refused once its tokens are revoked or expired', async () => {
    const revoked = await bot('include-revoked');
    const expiring = await bot('include-expiring', { expires_at: '2026-11-23' });
    for (const user of [revoked, expiring]) expect(await includeReader(kiln.deps, user.id).project(fullPath)).toMatchObject({ fullPath });
    await revoke(revoked);
    kiln.clock.advance(2 * DAY);
    for (const user of [revoked, expiring]) expect(await includeReader(kiln.deps, user.id).project(fullPath), user.username).toBeNull();
    // A person's reads are unchanged.
    expect(await includeReader(kiln.deps, w.developer.id).project(fullPath)).toMatchObject({ fullPath });
  });
});
