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

describe('GET /templates/gitignores, dockerfiles, gitlab_ci_ymls', () => {
  it("lists GitHub's gitignores (languages, then Global) as key and name, and answers one's content", async () => {
    const list = await kiln.api('GET', '/templates/gitignores?per_page=100');
    expect(list.status).toBe(200);
    expect(Number(list.headers['x-total'])).toBeGreaterThan(150);
    expect(list.body[0]).toEqual({ key: 'Actionscript', name: 'Actionscript' });
    const all = (await kiln.api('GET', '/templates/gitignores?per_page=100&page=2')).body.map((entry: any) => entry.key);
    expect(all).toContain('Vim');
    const node = await kiln.api('GET', '/templates/gitignores/Node');
    expect(node.status).toBe(200);
    expect(Object.keys(node.body).sort()).toEqual(['content', 'name']);
    expect(node.body).toMatchObject({ name: 'Node', content: expect.stringContaining('node_modules/') });
    expect((await kiln.api('GET', '/templates/gitignores/C%2B%2B')).body.name).toBe('C++');
    expect((await kiln.api('GET', '/templates/gitignores/Vim')).body.content).toContain('.sw');
    expect(await kiln.api('GET', '/templates/gitignores/NoSuchThing')).toMatchObject({ status: 404, body: { message: '404 gitignore Not Found' } });
  });

  it("answers Kiln's own Dockerfile and .gitlab-ci.yml templates with GitLab's entities", async () => {
    const dockerfiles = await kiln.api('GET', '/templates/dockerfiles');
    expect(dockerfiles.body).toContainEqual({ key: 'Node', name: 'Node' });
    const node = await kiln.api('GET', '/templates/dockerfiles/Node');
    expect(node.body).toMatchObject({ name: 'Node', content: expect.stringMatching(/^# A starting point from Kiln[\s\S]*FROM node:/) });
    expect(await kiln.api('GET', '/templates/dockerfiles/Nope')).toMatchObject({ status: 404, body: { message: '404 dockerfile Not Found' } });
    // More than one default page (20), as GitLab's: python-gitlab's suite lists them to test its paging.
    const firstPage = await kiln.api('GET', '/templates/gitlab_ci_ymls');
    expect(firstPage.body).toHaveLength(20);
    expect(firstPage.headers['x-total']).toBe('22');
    const ymls = await kiln.api('GET', '/templates/gitlab_ci_ymls?per_page=100');
    expect(ymls.body.map((entry: any) => entry.key)).toEqual(['Bash', 'C++', 'Clojure', 'Crystal', 'Dart', 'Django', 'dotNET', 'Elixir', 'Go', 'Gradle', 'Haskell', 'Julia', 'LaTeX', 'Maven', 'Nodejs', 'PHP', 'Python', 'Ruby', 'Rust', 'Scala', 'Swift', 'Terraform']);
    const python = await kiln.api('GET', '/templates/gitlab_ci_ymls/Python');
    expect(python.body.content).toContain('stages:');
    // GitLab's key for Node.js, which python-gitlab's suite reads.
    expect((await kiln.api('GET', '/templates/gitlab_ci_ymls/Nodejs')).body.content).toContain('npm ci');
    expect((await kiln.api('GET', '/templates/gitlab_ci_ymls/C%2B%2B')).body.content).toContain('image: gcc:14\n');
    expect(await kiln.api('GET', '/templates/gitlab_ci_ymls/Nope')).toMatchObject({ status: 404, body: { message: '404 gitlab_ci_yml Not Found' } });
  });

  it('every Kiln .gitlab-ci.yml template is a configuration Kiln runs (the CI lint accepts it)', async () => {
    const ymls = (await kiln.api('GET', '/templates/gitlab_ci_ymls')).body;
    for (const { key } of ymls) {
      const content = (await kiln.api('GET', `/templates/gitlab_ci_ymls/${key}`)).body.content;
      const lint = await kiln.api('POST', `/projects/${project.id}/ci/lint`, { token: alice.token, body: { content } });
      expect([key, lint.status, lint.body.valid, lint.body.errors]).toEqual([key, 200, true, []]);
    }
  });
});

describe('GET /projects/:id/templates/:type', () => {
  it('lists and answers every kind for the project; 400 for an unknown kind, 404 Template for an unknown name', async () => {
    for (const type of ['gitignores', 'dockerfiles', 'gitlab_ci_ymls']) {
      const list = await kiln.api('GET', `/projects/${project.id}/templates/${type}?per_page=3`, { token: alice.token });
      expect(list.status).toBe(200);
      expect(Object.keys(list.body[0]).sort()).toEqual(['key', 'name']);
      const one = await kiln.api('GET', `/projects/${project.id}/templates/${type}/${encodeURIComponent(list.body[0].key)}`, { token: alice.token });
      expect(one.body).toMatchObject({ name: list.body[0].key, content: expect.any(String) });
    }
    const wrong = await kiln.api('GET', `/projects/${project.id}/templates/widgets`, { token: alice.token });
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.body)).toContain('type');
    expect(await kiln.api('GET', `/projects/${project.id}/templates/gitignores/Nope`, { token: alice.token })).toMatchObject({ status: 404, body: { message: '404 Template Not Found' } });
    expect((await kiln.api('GET', `/projects/${project.id}/templates/gitignores`, { token: bob.token })).status).toBe(404);
  });
});
