// License templates (issue 38): /templates/licenses from the SPDX License List with GitLab's entity,
// `popular`, placeholders filled (year, fullname or the caller's name, project), 404 for an unknown
// key, and /projects/:id/templates/licenses for the project's readers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';

let kiln: TestKiln;
let alice: TestUser;
let bob: TestUser;
let project: any;
const year = String(new Date().getUTCFullYear());

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  project = await kiln.createProject(alice, 'app', { visibility: 'private' });
});
afterAll(() => kiln?.close());

describe('GET /templates/licenses', () => {
  it('lists the OSI approved licenses by name, paginated, and the popular ones', async () => {
    const page = await kiln.api('GET', '/templates/licenses?per_page=100');
    expect(page.status).toBe(200);
    expect(page.body).toHaveLength(100);
    expect(Number(page.headers['x-total'])).toBeGreaterThan(100);
    const popular = await kiln.api('GET', '/templates/licenses?popular=true');
    expect(popular.body.map((license: any) => license.key).sort()).toEqual(['apache-2.0', 'gpl-3.0', 'mit']);
    expect(popular.body.find((license: any) => license.key === 'mit')).toMatchObject({ name: 'MIT License', popular: true, html_url: expect.stringMatching(/^https:\/\//), content: expect.stringContaining('Permission is hereby granted') });
  });

  it('fills the placeholders of one license: year, fullname (else the caller), project', async () => {
    const mit = await kiln.api('GET', '/templates/licenses/MIT?fullname=Ada%20Lovelace');
    expect(mit.status).toBe(200);
    expect(mit.body.key).toBe('mit');
    expect(mit.body.content).toContain(`Copyright (c) ${year} Ada Lovelace`);
    const apache = await kiln.api('GET', '/templates/licenses/apache-2.0', { token: alice.token });
    const name = (await kiln.api('GET', '/user', { token: alice.token })).body.name;
    expect(apache.body.content).toContain(`Copyright ${year} ${name}`);
    expect(apache.body.content).not.toContain('[yyyy]');
    const gpl = await kiln.api('GET', '/templates/licenses/gpl-3.0?project=Frobnicator&fullname=Ada');
    expect(gpl.body.content).not.toMatch(/<year>|\[year\]/i);
    expect(await kiln.api('GET', '/templates/licenses/no-such-license')).toMatchObject({ status: 404, body: { message: '404 License Not Found' } });
  });
});

describe('GET /projects/:id/templates/licenses', () => {
  it("lists keys and names for the project's readers, and fills one; 404 for others", async () => {
    const list = await kiln.api('GET', `/projects/${project.id}/templates/licenses?per_page=5`, { token: alice.token });
    expect(list.status).toBe(200);
    expect(Object.keys(list.body[0]).sort()).toEqual(['key', 'name']);
    const one = await kiln.api('GET', `/projects/${project.id}/templates/licenses/mit?fullname=Alice`, { token: alice.token });
    expect(one.body.content).toContain(`Copyright (c) ${year} Alice`);
    expect((await kiln.api('GET', `/projects/${project.id}/templates/licenses`, { token: bob.token })).status).toBe(404);
  });
});
