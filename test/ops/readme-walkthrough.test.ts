// README.md's "Using the API" block, run as written by bash (with `npx kiln` from the checkout and
// curl) against a started Kiln that already has another user, whose namespace takes the id a
// hard-coded `namespace_id` would have guessed. Only the address is changed (the test's port).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { apiCall, startKilnProcess, type KilnProcess } from '../clients/helpers/server.js';
import { childDatabaseEnv } from '../platform/process-helpers.js';
import { commandsOf, fencedBlocks } from '../helpers/markdown-commands.js';
import { REPO, runSteps } from './docs-shell.js';

describe('README.md: Using the API', () => {
  let testDb: TestDatabase;
  let kiln: KilnProcess;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    kiln = await startKilnProcess({ dataDir: testDb.dataDir, env: childDatabaseEnv(testDb) });
    // Another user first: their namespace is the one after root's.
    await apiCall(kiln, 'POST', '/users', { username: 'bob', email: 'bob@example.com', name: 'Bob', password: 'bob-password-1', skip_confirmation: true });
  }, 60_000);
  afterAll(async () => {
    await kiln?.stop();
    await testDb.database.close();
    await testDb.drop();
  });

  it('runs as written on an instance that already has a user, and every answer is the one the README promises', { timeout: 120_000 }, async () => {
    const readme = readFileSync(`${REPO}/README.md`, 'utf8');
    const section = readme.slice(readme.indexOf('## Using the API'));
    const block = fencedBlocks(section.slice(0, section.indexOf('\n## ', 1)))[0];
    expect(block.info).toBe('sh');
    const commands = commandsOf(block.text).map((command) => command.replaceAll('http://127.0.0.1:8080', kiln.url));
    expect(commands.join('\n')).not.toContain('namespace_id=2');

    const env = { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/tmp', KILN_DATA_DIR: kiln.dataDir, KILN_LOG_LEVEL: 'warn', ...childDatabaseEnv(testDb) };
    const { steps, stderr } = await runSteps(commands, env);
    expect(stderr).toBe('');
    const answer = (pattern: RegExp) => {
      const step = steps.find((candidate) => pattern.test(candidate.command));
      expect(step, `a command matching ${pattern}`).toBeDefined();
      expect(step!.code, `${step!.command}\n${step!.output}`).toBe(0);
      return step!.output;
    };
    const json = (pattern: RegExp) => JSON.parse(answer(pattern));

    expect(answer(/^TOKEN=\$\(npx kiln admin create-token /)).toBe('');
    expect(json(/\$API\/user$/)).toMatchObject({ username: 'root', is_admin: true });
    expect(answer(/^GROUP_ID=/)).toBe('');
    const group = (await apiCall(kiln, 'GET', '/groups/platform')) as { id: number };
    const project = json(/-X POST \$API\/projects /);
    expect(project).toMatchObject({ path_with_namespace: 'platform/api', namespace: { id: group.id, kind: 'group' } });
    expect(json(/\$API\/projects\/platform%2Fapi$/)).toMatchObject({ id: project.id, name: 'api' });
    expect(json(/platform%2Fapi\/issues/)).toMatchObject({ iid: 1, title: 'First issue', project_id: project.id });
    const listing = answer(/projects\?per_page=2/);
    expect(listing).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(listing).toMatch(/\r\nx-total: 1\r\n/i);
    expect(listing).toMatch(/\r\nlink: <[^>]+per_page=2[^>]*>; rel="first"/i);
    expect(answer(/kiln admin create-user --username alice/)).toMatch(/^created user alice \(id \d+\)\n$/);
    expect(json(/Sudo: alice/)).toMatchObject({ username: 'alice', email: 'alice@example.com' });
    expect(steps.every((step) => step.code === 0)).toBe(true);
  });
});
