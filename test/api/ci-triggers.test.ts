// Pipeline trigger tokens (issue 39): Maintainers manage them (a Developer gets 403), the token is
// shown once and stored as a digest, and POST /projects/:id/trigger/pipeline runs a pipeline with
// source `trigger` as the token's owner with the request's variables, only while that owner may still
// create pipelines in the project (GitLab's Chain::Validate::Abilities, checked on every use).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, commit, create, type RepositoryWorld } from './repository-api-driver.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let token: string;
let triggerId: number;

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  await commit(kiln, w.maintainer.token, w.project.id, { branch: 'main', commit_message: 'ci [skip ci]', actions: [create('.gitlab-ci.yml', 'build:\n  script: echo $TARGET\n')] });
  await kiln.worker.drain();
});

afterAll(async () => {
  await kiln?.close();
});

const triggers = (path = '') => `/projects/${w.project.id}/triggers${path}`;
const fire = (body: unknown, headers: Record<string, string> = {}, project: number | string = w.project.id) =>
  kiln.request('POST', `/api/v4/projects/${project}/trigger/pipeline`, { body, headers });

describe('POST /projects/:id/triggers', () => {
  it('as a maintainer makes a glptt- token shown once and stored as a digest', async () => {
    const created = await kiln.api('POST', triggers(), { token: w.maintainer.token, body: { description: 'nightly' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.any(Number), description: 'nightly', last_used: null, owner: { username: w.maintainer.username } });
    token = created.body.token;
    triggerId = created.body.id;
    expect(token).toMatch(/^glptt-[A-Za-z0-9_-]{20}$/);
    const stored = await kiln.deps.db.selectFrom('ci_triggers').select('token_digest').executeTakeFirstOrThrow();
    expect(stored.token_digest).not.toContain(token);
    const listed = await kiln.api('GET', triggers(), { token: w.maintainer.token });
    expect(listed.body).toEqual([expect.objectContaining({ id: triggerId, token: token.slice(6, 10) })]);
  });

  it('as a developer is 403; a description is required', async () => {
    expect((await kiln.api('POST', triggers(), { token: w.developer.token, body: { description: 'x' } })).status).toBe(403);
    expect((await kiln.api('GET', triggers(), { token: w.developer.token })).status).toBe(403);
    expect((await kiln.api('POST', triggers(), { token: w.maintainer.token, body: {} })).status).toBe(400);
  });
});

describe('POST /projects/:id/trigger/pipeline', () => {
  it('runs a pipeline with source trigger as the owner, with the variables', async () => {
    const fired = await fire({ token, ref: 'main', variables: { TARGET: 'staging' } });
    expect(fired.statusCode).toBe(201);
    const pipeline = fired.json();
    expect(pipeline).toMatchObject({ ref: 'main', source: 'trigger', status: 'pending', user: { username: w.maintainer.username } });
    const variables = await kiln.api('GET', `/projects/${w.project.id}/pipelines/${pipeline.id}/variables`, { token: w.maintainer.token });
    expect(variables.body).toEqual([{ variable_type: 'env_var', key: 'TARGET', value: 'staging' }]);
    const shown = await kiln.api('GET', triggers(`/${triggerId}`), { token: w.maintainer.token });
    expect(shown.body.last_used).not.toBeNull();
  });

  it('takes form fields with variables[KEY] and the ref in the path', async () => {
    const form = await kiln.app.inject({
      method: 'POST', url: `/api/v4/projects/${w.project.id}/ref/main/trigger/pipeline`,
      payload: `token=${token}&variables[TARGET]=form`, headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.statusCode).toBe(201);
    const variables = await kiln.api('GET', `/projects/${w.project.id}/pipelines/${form.json().id}/variables`, { token: w.maintainer.token });
    expect(variables.body).toEqual([{ variable_type: 'env_var', key: 'TARGET', value: 'form' }]);
  });

  it("answers GitLab's errors", async () => {
    expect((await fire({ token: 'glptt-wrong', ref: 'main' })).statusCode).toBe(404);
    expect((await fire({ token, ref: 'main' }, {}, 999999)).statusCode).toBe(404);
    const badVariables = await fire({ token, ref: 'main', variables: { TARGET: 1 } });
    expect(badVariables.statusCode).toBe(400);
    expect(badVariables.json()).toEqual({ message: 'variables needs to be a map of key-valued strings' });
    expect((await fire({ token, ref: 'nowhere' })).json()).toEqual({ message: { base: ['Reference not found'] } });
    expect((await fire({ token, ref: 'main' }, { 'x-gitlab-event': 'Pipeline Hook' })).statusCode).toBe(403);
  });

  it('stops working once the token is deleted', async () => {
    expect((await kiln.api('DELETE', triggers(`/${triggerId}`), { token: w.maintainer.token })).status).toBe(204);
    expect((await fire({ token, ref: 'main' })).statusCode).toBe(404);
    expect((await kiln.api('GET', triggers(`/${triggerId}`), { token: w.maintainer.token })).body).toEqual({ message: '404 Trigger Not Found' });
  });
});

describe("a trigger token runs only while its owner may create pipelines", () => {
  const REFUSED = { message: { base: ['Insufficient permissions to create a new pipeline'] } };

  async function ownedTrigger(username: string) {
    const owner = await kiln.createUser(username);
    await kiln.addMember(w.owner, 'projects', w.project.id, owner, ACCESS.maintainer);
    const made = await kiln.api('POST', triggers(), { token: owner.token, body: { description: username } });
    expect(made.status).toBe(201);
    return { owner, token: made.body.token as string };
  }
  const member = (userId: number) => `/projects/${w.project.id}/members/${userId}`;

  it('refuses once the owner is demoted below Developer or removed, before looking at the ref', async () => {
    const { owner, token: own } = await ownedTrigger('trigger-demoted');
    expect((await fire({ token: own, ref: 'main' })).statusCode).toBe(201);
    expect((await kiln.api('PUT', member(owner.id), { token: w.owner.token, body: { access_level: ACCESS.reporter } })).status).toBe(200);
    const demoted = await fire({ token: own, ref: 'main' });
    expect(demoted.statusCode).toBe(400);
    expect(demoted.json()).toEqual(REFUSED);
    expect((await fire({ token: own, ref: 'nowhere' })).json()).toEqual(REFUSED);
    // A Developer may create pipelines: the token works again.
    expect((await kiln.api('PUT', member(owner.id), { token: w.owner.token, body: { access_level: ACCESS.developer } })).status).toBe(200);
    expect((await fire({ token: own, ref: 'main' })).statusCode).toBe(201);
    expect((await kiln.api('DELETE', member(owner.id), { token: w.owner.token })).status).toBe(204);
    const removed = await fire({ token: own, ref: 'main' });
    expect(removed.statusCode).toBe(400);
    expect(removed.json()).toEqual(REFUSED);
  });

  it('refuses while the owner is blocked', async () => {
    const { owner, token: own } = await ownedTrigger('trigger-blocked');
    expect((await kiln.api('POST', `/users/${owner.id}/block`, { token: kiln.root.token })).status).toBe(201);
    const blocked = await fire({ token: own, ref: 'main' });
    expect(blocked.statusCode).toBe(400);
    expect(blocked.json()).toEqual(REFUSED);
    expect((await kiln.api('POST', `/users/${owner.id}/unblock`, { token: kiln.root.token })).status).toBe(201);
    expect((await fire({ token: own, ref: 'main' })).statusCode).toBe(201);
  });

  it("refuses once a project access token's bot has no usable token (the bot stays a Maintainer)", async () => {
    const bot = await kiln.apiAs(w.owner, 'POST', `/projects/${w.project.id}/access_tokens`, { name: 'trigger-bot', scopes: ['api'], access_level: ACCESS.maintainer });
    const made = await kiln.api('POST', triggers(), { token: bot.token, body: { description: 'bot' } });
    expect(made.status).toBe(201);
    expect((await fire({ token: made.body.token, ref: 'main' })).statusCode).toBe(201);
    expect((await kiln.api('DELETE', `/projects/${w.project.id}/access_tokens/${bot.id}`, { token: w.owner.token })).status).toBe(204);
    const revoked = await fire({ token: made.body.token, ref: 'main' });
    expect(revoked.statusCode).toBe(400);
    expect(revoked.json()).toEqual(REFUSED);
  });
});
