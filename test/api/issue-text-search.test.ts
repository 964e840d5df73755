// Issue search through the trigram index (issue 40, growth): `search=` on the issue listings and
// GET /search?scope=issues find the text anywhere in a title or description, case-insensitively and
// literally, and the index follows every write of the issue (edit, delete) on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';

let kiln: TestKiln;
let owner: TestUser;
let project: any;
const issues: Record<string, any> = {};

const titles = (body: any[]) => body.map((issue) => issue.title).sort();

async function find(path: string, query: Record<string, string>): Promise<string[]> {
  const answer = await kiln.api('GET', path, { token: owner.token, query });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return titles(answer.body);
}

const inProject = (search: string, extra: Record<string, string> = {}) => find(`/projects/${project.id}/issues`, { search, ...extra });
const everywhere = (search: string) => find('/search', { scope: 'issues', search });

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  project = await kiln.createProject(owner, 'tracker');
  const create = async (key: string, body: Record<string, unknown>) => {
    const answer = await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    issues[key] = answer.body;
  };
  await create('login', { title: 'Login FAILS after upgrade', description: 'Seen on the release branch' });
  await create('quoted', { title: 'Say "hi" to 100%_done', description: null });
  await create('plain', { title: 'Slow build', description: 'the login page is slow too' });
  await create('short', { title: 'Go', description: 'ok' });
  await create('accented', { title: 'Crème brûlée on ſtage', description: null });
});

afterAll(async () => {
  await kiln?.close();
});

describe('issue text search', () => {
  it('finds a text inside titles and descriptions, in any case, in a project and everywhere', async () => {
    expect(await inProject('login')).toEqual(['Login FAILS after upgrade', 'Slow build']);
    expect(await inProject('s aFt')).toEqual(['Login FAILS after upgrade']);
    expect(await inProject('LOGIN', { in: 'title' })).toEqual(['Login FAILS after upgrade']);
    expect(await everywhere('release bra')).toEqual(['Login FAILS after upgrade']);
    expect(await find('/issues', { scope: 'all', search: 'login page' })).toEqual(['Slow build']);
    expect(await inProject('nothing like it')).toEqual([]);
  });

  it('matches quotes, percent signs and underscores literally, and texts shorter than a trigram', async () => {
    expect(await inProject('"hi"')).toEqual(['Say "hi" to 100%_done']);
    expect(await inProject('%_d')).toEqual(['Say "hi" to 100%_done']);
    expect(await inProject('0_d')).toEqual([]);
    expect(await inProject('go')).toEqual(['Go']);
    expect(await everywhere('ok')).toEqual(['Go']);
  });

  it('lower-cases the text, not only ASCII, and answers the LIKE, not the index, where their case folding differs', async () => {
    expect(await inProject('CRÈME BRÛLÉE')).toEqual(['Crème brûlée on ſtage']);
    expect(await everywhere('brûlée')).toEqual(['Crème brûlée on ſtage']);
    // SQLite's trigram index folds the long s to "s" and names the issue; the LIKE does not match it.
    expect(await inProject('stage')).toEqual([]);
    expect(await everywhere('on stage')).toEqual([]);
  });

  it('follows edits and deletions', async () => {
    const edited = await kiln.api('PUT', `/projects/${project.id}/issues/${issues.plain.iid}`, { token: owner.token, body: { title: 'Fast build', description: 'the sign-in page' } });
    expect(edited.status).toBe(200);
    expect(await inProject('login')).toEqual(['Login FAILS after upgrade']);
    expect(await inProject('sign-in')).toEqual(['Fast build']);
    expect(await everywhere('fast')).toEqual(['Fast build']);
    const deleted = await kiln.api('DELETE', `/projects/${project.id}/issues/${issues.login.iid}`, { token: owner.token });
    expect(deleted.status).toBe(204);
    expect(await inProject('login')).toEqual([]);
    expect(await everywhere('upgrade')).toEqual([]);
  });
});
