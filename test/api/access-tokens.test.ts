// Project and group access tokens (a bot member per token, with a role and scopes; rotate; revoke)
// and impersonation tokens (administrators), as GitLab's API has them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';

let kiln: TestKiln;
let alice: TestUser;
let bob: TestUser;
let project: any;
let group: any;

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  group = await kiln.createGroup(alice, 'team');
  project = await kiln.createProject(alice, 'app', { namespace_id: group.id, visibility: 'private' });
  await kiln.addMember(alice, 'projects', project.id, bob, ACCESS.maintainer);
});
afterAll(() => kiln.close());

describe('/projects/:id/access_tokens', () => {
  let created: any;

  it('creates a token whose bot is a member with the role, and the token works on the project', async () => {
    const result = await kiln.api('POST', `/projects/${project.id}/access_tokens`, { token: alice.token, body: { name: 'ci', scopes: ['api'], access_level: 30, expires_at: '2027-01-01' } });
    expect(result.status).toBe(201);
    created = result.body;
    expect(created).toMatchObject({ name: 'ci', scopes: ['api'], access_level: 30, revoked: false, active: true, expires_at: '2027-01-01' });
    expect(created.token).toMatch(/^glpat-/);
    const bot = await kiln.api('GET', '/user', { token: created.token });
    expect(bot.body.username).toMatch(new RegExp(`^project_${project.id}_bot_[0-9a-f]{16}$`));
    expect(bot.body.name).toBe('ci');
    expect(bot.body.id).toBe(created.user_id);
    const members = await kiln.apiAs(alice, 'GET', `/projects/${project.id}/members`);
    expect(members.find((member: any) => member.id === created.user_id).access_level).toBe(30);
    expect((await kiln.api('GET', `/projects/${project.id}/issues`, { token: created.token })).status).toBe(200);
    // A developer's token cannot administer the project.
    expect((await kiln.api('GET', `/projects/${project.id}/access_tokens`, { token: created.token })).status).toBe(403);
  });

  it('defaults to the Maintainer role, and lists and finds the project\'s tokens', async () => {
    const second = await kiln.apiAs(alice, 'POST', `/projects/${project.id}/access_tokens`, { name: 'deploy', scopes: ['read_repository'] });
    expect(second.access_level).toBe(40);
    expect(second.expires_at).toBeNull();
    const listed = await kiln.apiAs(bob, 'GET', `/projects/${project.id}/access_tokens`);
    expect(listed.map((token: any) => [token.name, token.access_level])).toEqual([['ci', 30], ['deploy', 40]]);
    expect(listed[0].token).toBeUndefined();
    expect((await kiln.apiAs(alice, 'GET', `/projects/${project.id}/access_tokens/${created.id}`)).name).toBe('ci');
    expect((await kiln.api('GET', `/projects/${project.id}/access_tokens/999999`, { token: alice.token })).status).toBe(404);
  });

  it('refuses a role above the creator\'s, unknown scopes and levels, and non-maintainers', async () => {
    const owner = await kiln.api('POST', `/projects/${project.id}/access_tokens`, { token: bob.token, body: { name: 'x', scopes: ['api'], access_level: 50 } });
    expect(owner.status).toBe(400);
    expect(owner.body.message).toBe('400 Bad request - User does not have permission to create project access token with the specified access level.');
    const scope = await kiln.api('POST', `/projects/${project.id}/access_tokens`, { token: alice.token, body: { name: 'x', scopes: ['sudo'] } });
    expect(scope.status).toBe(400);
    expect(scope.body.message.scopes).toEqual(['can only contain available scopes']);
    const level = await kiln.api('POST', `/projects/${project.id}/access_tokens`, { token: alice.token, body: { name: 'x', scopes: ['api'], access_level: 45 } });
    expect(level.status).toBe(400);
    expect(level.body.error).toBe('access_level does not have a valid value');
    const missing = await kiln.api('POST', `/projects/${project.id}/access_tokens`, { token: alice.token, body: { name: 'x' } });
    expect(missing.body.error).toBe('scopes is missing');
    const carol = await kiln.createUser('carol');
    await kiln.addMember(alice, 'projects', project.id, carol, ACCESS.developer);
    expect((await kiln.api('POST', `/projects/${project.id}/access_tokens`, { token: carol.token, body: { name: 'x', scopes: ['api'] } })).status).toBe(403);
  });

  it('rotates: the old token stops working, the new one expires in a week unless told', async () => {
    const rotated = await kiln.api('POST', `/projects/${project.id}/access_tokens/${created.id}/rotate`, { token: alice.token });
    expect(rotated.status).toBe(201);
    expect(rotated.body).toMatchObject({ name: 'ci', scopes: ['api'], access_level: 30, user_id: created.user_id, expires_at: new Date(kiln.clock.now() + 7 * 86_400_000).toISOString().slice(0, 10) });
    expect(rotated.body.token).not.toBe(created.token);
    expect((await kiln.api('GET', '/user', { token: created.token })).status).toBe(401);
    expect((await kiln.api('GET', '/user', { token: rotated.body.token })).status).toBe(200);
    const again = await kiln.api('POST', `/projects/${project.id}/access_tokens/${created.id}/rotate`, { token: alice.token });
    expect(again.status).toBe(400);
    const inactive = await kiln.apiAs(alice, 'GET', `/projects/${project.id}/access_tokens?state=inactive`);
    expect(inactive.map((token: any) => token.id)).toEqual([created.id]);
    created = rotated.body;
  });

  it('revokes: the token stops working and is listed as inactive; the bot stays a member', async () => {
    expect((await kiln.api('DELETE', `/projects/${project.id}/access_tokens/${created.id}`, { token: alice.token })).status).toBe(204);
    expect((await kiln.api('GET', '/user', { token: created.token })).status).toBe(401);
    const members = await kiln.apiAs(alice, 'GET', `/projects/${project.id}/members`);
    expect(members.find((member: any) => member.id === created.user_id).access_level).toBe(30);
    expect((await kiln.apiAs(alice, 'GET', `/projects/${project.id}/access_tokens`)).map((token: any) => token.name)).toEqual(['deploy']);
    const inactive = await kiln.apiAs(alice, 'GET', `/projects/${project.id}/access_tokens?state=inactive`);
    expect(inactive.map((token: any) => [token.name, token.revoked])).toEqual([['ci', true], ['ci', true]]);
  });
});

describe('/groups/:id/access_tokens', () => {
  it('is for owners: a group token reaches the group\'s projects with its role', async () => {
    // bob, a Maintainer of a project in the group, reads it (GitLab's has_projects), not its tokens.
    expect((await kiln.api('GET', `/groups/${group.id}/access_tokens`, { token: bob.token })).status).toBe(403);
    const token = await kiln.apiAs(alice, 'POST', `/groups/${group.id}/access_tokens`, { name: 'group bot', scopes: ['read_api'], access_level: 20 });
    expect(token.access_level).toBe(20);
    const bot = await kiln.api('GET', '/user', { token: token.token });
    expect(bot.body.username).toMatch(new RegExp(`^group_${group.id}_bot_`));
    expect((await kiln.api('GET', `/projects/${project.id}`, { token: token.token })).status).toBe(200);
    expect((await kiln.api('POST', `/projects/${project.id}/issues`, { token: token.token, body: { title: 'x' } })).status).toBe(403);
    expect((await kiln.apiAs(alice, 'GET', `/groups/${group.id}/access_tokens`)).map((row: any) => row.name)).toEqual(['group bot']);
  });
});

describe('/users/:user_id/impersonation_tokens', () => {
  it('lets administrators make, list and revoke tokens that act as the user', async () => {
    expect((await kiln.api('POST', `/users/${bob.id}/impersonation_tokens`, { token: alice.token, body: { name: 'x', scopes: ['api'] } })).status).toBe(403);
    const made = await kiln.api('POST', `/users/${bob.id}/impersonation_tokens`, { token: kiln.root.token, body: { name: 'support', scopes: ['api'] } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: 'support', impersonation: true, active: true, user_id: bob.id });
    expect((await kiln.api('GET', '/user', { token: made.body.token })).body.username).toBe('bob');
    const listed = await kiln.apiAs(kiln.root, 'GET', `/users/${bob.id}/impersonation_tokens`);
    expect(listed.map((token: any) => token.name)).toEqual(['support']);
    expect((await kiln.apiAs(kiln.root, 'GET', `/users/${bob.id}/impersonation_tokens/${made.body.id}`)).id).toBe(made.body.id);
    expect((await kiln.api('DELETE', `/users/${bob.id}/impersonation_tokens/${made.body.id}`, { token: kiln.root.token })).status).toBe(204);
    expect((await kiln.api('GET', '/user', { token: made.body.token })).status).toBe(401);
    expect(await kiln.apiAs(kiln.root, 'GET', `/users/${bob.id}/impersonation_tokens?state=active`)).toEqual([]);
    expect((await kiln.apiAs(kiln.root, 'GET', `/users/${bob.id}/impersonation_tokens?state=inactive`)).length).toBe(1);
  });
});
