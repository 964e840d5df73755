// Project topics (issue 38): /topics listed and read by anyone, ordered by their public projects and
// searched; made, changed, deleted and merged by administrators with GitLab's validation; projects'
// `topics` make and link them (spelled as the topic is), renames and merges reach the projects, the
// `topic` and `topic_id` filters of /projects, and a topic's avatar.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { multipart, TINY_PNG } from '../helpers/multipart.js';

let kiln: TestKiln;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
});
afterAll(() => kiln?.close());

const topicsOf = async (id: number, token = alice.token) => (await kiln.api('GET', `/projects/${id}`, { token })).body.topics;

describe('topics made by projects', () => {
  let rubyId: number;

  it('a project listing topics makes them, titled by their name; a later spelling joins the existing topic', async () => {
    const one = await kiln.api('POST', '/projects', { token: alice.token, body: { name: 'one', visibility: 'public', topics: ['Ruby', 'web'] } });
    expect([one.status, one.body.topics]).toEqual([201, ['Ruby', 'web']]);
    const two = await kiln.createProject(alice, 'two', { visibility: 'private' });
    const updated = await kiln.api('PUT', `/projects/${two.id}`, { token: alice.token, body: { topics: 'ruby, cli' } });
    expect(updated.body.topics).toEqual(['Ruby', 'cli']);
    const list = await kiln.api('GET', '/topics');
    expect(list.status).toBe(200);
    // Ruby and web have one public project each, cli none; then oldest first.
    expect(list.body.map((topic: any) => [topic.name, topic.total_projects_count])).toEqual([['Ruby', 2], ['web', 1], ['cli', 1]]);
    rubyId = list.body[0].id;
    expect(list.body[0]).toEqual({ id: rubyId, name: 'Ruby', title: 'Ruby', description: null, total_projects_count: 2, avatar_url: null });
    expect((await kiln.api('GET', `/topics/${rubyId}`)).body.name).toBe('Ruby');
    expect((await kiln.api('GET', '/topics/999999')).status).toBe(404);
  });

  it('searches names and lists topics without projects', async () => {
    expect((await kiln.api('GET', '/topics?search=RU')).body.map((topic: any) => topic.name)).toEqual(['Ruby']);
    const lonely = await kiln.api('POST', '/topics', { token: kiln.root.token, body: { name: 'lonely', title: 'Lonely' } });
    expect(lonely.status).toBe(201);
    expect((await kiln.api('GET', '/topics?without_projects=true')).body.map((topic: any) => topic.name)).toEqual(['lonely']);
  });

  it('/projects filters by topic names (all of them, any case) and by topic_id', async () => {
    const names = async (query: string) => (await kiln.api('GET', `/projects?${query}`, { token: alice.token })).body.map((project: any) => project.name).sort();
    expect(await names('topic=ruby')).toEqual(['one', 'two']);
    expect(await names('topic=ruby,web')).toEqual(['one']);
    expect(await names(`topic_id=${rubyId}`)).toEqual(['one', 'two']);
    expect(await names('topic=nothing')).toEqual([]);
  });

  it('a renamed topic is renamed in its projects; a deleted one leaves them', async () => {
    const renamed = await kiln.api('PUT', `/topics/${rubyId}`, { token: kiln.root.token, body: { name: 'ruby-lang', description: 'The language' } });
    expect(renamed.body).toMatchObject({ name: 'ruby-lang', title: 'Ruby', description: 'The language' });
    const projects = (await kiln.api('GET', '/projects?topic=ruby-lang', { token: alice.token })).body;
    expect(projects.map((project: any) => project.topics)).toEqual(expect.arrayContaining([['ruby-lang', 'web'], ['ruby-lang', 'cli']]));
    const web = (await kiln.api('GET', '/topics?search=web')).body[0];
    expect((await kiln.api('DELETE', `/topics/${web.id}`, { token: kiln.root.token })).status).toBe(204);
    const one = projects.find((project: any) => project.name === 'one');
    expect(await topicsOf(one.id)).toEqual(['ruby-lang']);
  });

  it('merges a topic into another: its projects list the target instead, and it is gone', async () => {
    const cli = (await kiln.api('GET', '/topics?search=cli')).body[0];
    const merged = await kiln.api('POST', '/topics/merge', { token: kiln.root.token, body: { source_topic_id: cli.id, target_topic_id: rubyId } });
    expect(merged).toMatchObject({ status: 201, body: { id: rubyId, total_projects_count: 2 } });
    expect((await kiln.api('GET', `/topics/${cli.id}`)).status).toBe(404);
    const two = (await kiln.api('GET', '/projects?search=two', { token: alice.token })).body[0];
    expect(two.topics).toEqual(['ruby-lang']);
    expect(await kiln.api('POST', '/topics/merge', { token: kiln.root.token, body: { source_topic_id: rubyId, target_topic_id: rubyId } }))
      .toMatchObject({ status: 400, body: { message: 'The source topic and the target topic are identical.' } });
  });
});

describe('administration', () => {
  it('only administrators write (403), never anonymously (401)', async () => {
    expect((await kiln.api('POST', '/topics', { token: bob.token, body: { name: 'x', title: 'X' } })).status).toBe(403);
    expect((await kiln.api('POST', '/topics', { body: { name: 'x', title: 'X' } })).status).toBe(401);
    const topic = (await kiln.api('GET', '/topics')).body[0];
    expect((await kiln.api('PUT', `/topics/${topic.id}`, { token: bob.token, body: { title: 'mine' } })).status).toBe(403);
    expect((await kiln.api('DELETE', `/topics/${topic.id}`, { token: bob.token })).status).toBe(403);
    expect((await kiln.api('POST', '/topics/merge', { token: bob.token, body: { source_topic_id: 1, target_topic_id: 2 } })).status).toBe(403);
  });

  it('validates as GitLab: names unique whatever the case, no line breaks, lengths, required fields', async () => {
    const root = kiln.root.token;
    expect(await kiln.api('POST', '/topics', { token: root, body: { name: 'LONELY', title: 'x' } })).toMatchObject({ status: 400, body: { message: { name: ['has already been taken'] } } });
    expect(await kiln.api('POST', '/topics', { token: root, body: { name: 'a\nb', title: 'x' } })).toMatchObject({ status: 400, body: { message: { name: ['has characters that are not allowed'] } } });
    expect(await kiln.api('POST', '/topics', { token: root, body: { name: ' ', title: '', description: 'd'.repeat(1025) } }))
      .toMatchObject({ status: 400, body: { message: { name: ["can't be blank"], title: ["can't be blank"], description: ['is too long (maximum is 1024 characters)'] } } });
    // Without a title (GitLab 14.3's request, which had none), titled by its name.
    expect(await kiln.api('POST', '/topics', { token: root, body: { name: 'untitled', description: 'No title' } })).toMatchObject({ status: 201, body: { name: 'untitled', title: 'untitled', description: 'No title' } });
    expect((await kiln.api('GET', '/topics/abc')).status).toBe(400);
  });

  it('takes an avatar as multipart/form-data, serves it publicly, and removes it with an empty avatar', async () => {
    const { payload, contentType } = await multipart({ name: 'pictured', title: 'Pictured', avatar: { filename: 'logo.png', data: TINY_PNG, type: 'image/png' } });
    const response = await kiln.app.inject({ method: 'POST', url: '/api/v4/topics', headers: { 'private-token': kiln.root.token, 'content-type': contentType }, payload });
    expect(response.statusCode, response.body).toBe(201);
    const topic = JSON.parse(response.body);
    expect(topic.avatar_url).toBe(`http://kiln.test/uploads/-/system/projects/topic/avatar/${topic.id}/logo.png`);
    const image = await kiln.request('GET', `/uploads/-/system/projects/topic/avatar/${topic.id}/logo.png`);
    expect([image.statusCode, image.headers['content-type']]).toEqual([200, 'image/png']);
    expect((await kiln.api('PUT', `/topics/${topic.id}`, { token: kiln.root.token, body: { avatar: '' } })).body.avatar_url).toBeNull();
    expect((await kiln.request('GET', `/uploads/-/system/projects/topic/avatar/${topic.id}/logo.png`)).statusCode).toBe(404);
  });
});
