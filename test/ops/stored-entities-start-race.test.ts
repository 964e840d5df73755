// Processes of one instance started together after an upgrade (or a new KILN_BASE_URL) all find the
// stored project entities' definition out of date, and race to install it (stored-project-entities.ts).
// One installs and rebuilds while the others wait for its lock, then find the definition current.
// Every process must come up and stop cleanly, with one definition installed. The waiting itself is
// tested deterministically in test/api/projects-page-statement.test.ts; this is the whole start.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../helpers/database.js';
import { childDatabaseEnv, MAIN } from '../platform/process-helpers.js';

/** Start `kiln worker`, stop it as soon as it says it started; its exit code and the errors it printed. */
function workerStartAndStop(env: Record<string, string>): Promise<{ started: boolean; code: number | string | null; errors: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, 'worker'], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', KILN_LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let started = false;
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (!started && stdout.includes('worker started')) {
        started = true;
        child.kill('SIGTERM');
      }
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    // A signal's name in place of the code: the process did not stop by itself.
    child.once('exit', (code, signal) => resolve({ started, code: code ?? signal, errors: stderr + stdout.split('\n').filter((line) => /"level":[56]0/.test(line)).join('\n') }));
  });
}

describe('processes starting together when the stored entities must be rebuilt', () => {
  it('all start, and one definition, for the new base URL, is installed', { timeout: 120_000 }, async () => {
    const testDb = await createTestDatabase();
    try {
      const env = { KILN_DATA_DIR: testDb.dataDir, KILN_INITIAL_ROOT_PASSWORD: 'start-race-password-1', ...childDatabaseEnv(testDb) };
      // The first start creates the secrets, root and its namespace, and installs the definition for a.test.
      expect(await workerStartAndStop({ ...env, KILN_BASE_URL: 'http://a.test' })).toEqual({ started: true, code: 0, errors: '' });
      const db = testDb.database.db;
      let previous = await db.selectFrom('derived_definitions').select('digest').execute();
      expect(previous).toHaveLength(1);
      for (const round of ['b', 'c', 'd']) {
        const results = await Promise.all([1, 2, 3].map(() => workerStartAndStop({ ...env, KILN_BASE_URL: `http://${round}.test` })));
        expect(results).toEqual([1, 2, 3].map(() => ({ started: true, code: 0, errors: '' })));
        const definitions = await db.selectFrom('derived_definitions').select('digest').execute();
        expect(definitions).toHaveLength(1);
        expect(definitions[0].digest).not.toBe(previous[0].digest);
        previous = definitions;
        const root = await db.selectFrom('namespace_entities').innerJoin('namespaces', 'namespaces.id', 'namespace_entities.namespace_id').select('entity').where('namespaces.path', '=', 'root').executeTakeFirstOrThrow();
        expect(JSON.parse(root.entity)).toMatchObject({ web_url: `http://${round}.test/root` });
      }
    } finally {
      await testDb.database.close();
      await testDb.drop();
    }
  });
});
