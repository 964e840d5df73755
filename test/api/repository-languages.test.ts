// GET /projects/:id/languages: the default branch's bytes by language, as GitLab's linguist counts them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { commit, create, repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';
import { languageOf, languageShares } from '../../src/repositories/repository-api/languages.js';

let kiln: TestKiln;
let world: RepositoryWorld;

beforeAll(async () => {
  kiln = await testKiln();
  world = await repositoryWorld(kiln);
});
afterAll(async () => {
  await kiln?.close();
});

describe('languageShares', () => {
  it('counts programming and markup languages by bytes, leaving out prose, data, vendored code, docs and dotfiles', async () => {
    expect(await languageShares([
      { path: 'src/app.ts', size: 600 },
      { path: 'lib/util.py', size: 300 },
      { path: 'web/index.html', size: 100 },
      { path: 'README.md', size: 5000 },
      { path: 'config.json', size: 5000 },
      { path: 'node_modules/x/index.js', size: 9000 },
      { path: 'docs/example.rb', size: 9000 },
      { path: '.eslintrc.js', size: 9000 },
      { path: 'Makefile', size: 0 },
    ])).toEqual({ TypeScript: 60, Python: 30, HTML: 10 });
  });

  it('rounds to two decimals, largest first', async () => {
    expect(Object.entries(await languageShares([{ path: 'a.go', size: 1 }, { path: 'b.rs', size: 2 }]))).toEqual([['Rust', 66.67], ['Go', 33.33]]);
  });

  it('knows file names and prefers the language an extension is primary for', async () => {
    expect((await languageOf('build/Dockerfile'))?.name).toBe('Dockerfile');
    expect((await languageOf('x.c'))?.name).toBe('C');
    expect(await languageOf('noextension')).toBeNull();
  });
});

describe('GET /projects/:id/languages', () => {
  it('answers {} for an empty repository, then the default branch’s shares', async () => {
    const url = `/projects/${world.project.id}/languages`;
    expect(await kiln.api('GET', url, { token: world.reporter.token })).toMatchObject({ status: 200, body: {} });
    await commit(kiln, world.owner.token, world.project.id, { branch: 'main', actions: [create('main.go', 'package main\n'), create('tool.py', 'print(1)\n' + ' '.repeat(30))] });
    await commit(kiln, world.owner.token, world.project.id, { branch: 'other', start_branch: 'main', actions: [create('huge.rb', 'x'.repeat(10_000))] });
    const answer = await kiln.api('GET', url, { token: world.reporter.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ Python: 75, Go: 25 });
    expect((await kiln.api('GET', url, { token: world.stranger.token })).status).toBe(404);
  });
});
