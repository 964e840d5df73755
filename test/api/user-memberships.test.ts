// GET /users/:id/memberships (administrators): a user's direct project and group memberships.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';

let kiln: TestKiln;
let world: RepositoryWorld;

beforeAll(async () => {
  kiln = await testKiln();
  world = await repositoryWorld(kiln);
});
afterAll(async () => {
  await kiln?.close();
});

describe('GET /users/:id/memberships', () => {
  it('lists the groups and projects a user is a member of, with names and levels, and filters by type', async () => {
    const url = `/users/${world.owner.id}/memberships`;
    const all = await kiln.api('GET', url, { token: kiln.root.token });
    expect(all.status).toBe(200);
    expect(all.body).toEqual(expect.arrayContaining([
      { source_id: world.group.id, source_name: world.group.name, source_type: 'Namespace', access_level: 50 },
    ]));
    const developer = await kiln.api('GET', `/users/${world.developer.id}/memberships`, { token: kiln.root.token, query: { type: 'Project' } });
    expect(developer.body).toEqual([{ source_id: world.project.id, source_name: world.project.name, source_type: 'Project', access_level: 30 }]);
    expect((await kiln.api('GET', `/users/${world.developer.id}/memberships`, { token: kiln.root.token, query: { type: 'Namespace' } })).body).toEqual([]);
  });

  it('refuses a wrong type with 400 naming it, non-administrators with 403, an unknown user with 404', async () => {
    const wrong = await kiln.api('GET', `/users/${world.owner.id}/memberships`, { token: kiln.root.token, query: { type: 'Group' } });
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.body)).toContain('type');
    expect((await kiln.api('GET', `/users/${world.owner.id}/memberships`, { token: world.owner.token })).status).toBe(403);
    expect((await kiln.api('GET', '/users/999999/memberships', { token: kiln.root.token })).status).toBe(404);
  });
});
