// kill -9 of a real `kiln serve` while it moves a group's repository between shards: after a
// restart on the same data, the move ends finished with the repository intact on the destination
// (or failed with it intact on the source), and the group is writable again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiCall, freePort, startKilnProcess, type KilnProcess } from './helpers/server.js';
import { gitCommands } from '../helpers/git.js';

let work: string;
const { run: git, ok } = gitCommands(() => work);
let dataDir: string;
let port: number;
let rootToken: string;
let env: Record<string, string>;
let kiln: KilnProcess;



async function start(): Promise<KilnProcess> {
  return startKilnProcess({ dataDir, port, rootToken, env });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-crash-'));
  dataDir = join(work, 'data');
  port = await freePort();
  rootToken = `glpat-${randomBytes(12).toString('hex')}`;
  // No SSH: each restart would take a new free port for it, and beside the other client files one was
  // taken between being found free and Kiln binding it (the restart then refused to start).
  env = { KILN_SSH_PORT: 'off', KILN_STORAGES: JSON.stringify({ default: { path: join(work, 'default'), weight: 100 }, storage2: { path: join(work, 'storage2'), weight: 100 } }) };
  kiln = await start();
});
afterAll(async () => {
  await kiln?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('kill -9 during a group repository storage move', () => {
  for (const delayMs of [0, 40, 120, 400]) {
    it(`killed ${delayMs} ms after scheduling: the move completes after a restart and nothing is lost`, async () => {
      const path = `crash-${delayMs}`;
      const group = await apiCall(kiln, 'POST', '/groups', { name: path, path });
      const remote = `http://root:${rootToken}@127.0.0.1:${port}/${path}.wiki.git`;
      const dir = join(work, path);
      await ok(['clone', '-q', remote, dir]);
      // A few MB of incompressible pages, so the copy takes long enough to be interrupted.
      for (let i = 0; i < 4; i += 1) writeFileSync(join(dir, `blob-${i}.bin`), randomBytes(3 * 1024 * 1024));
      await ok(['add', '.'], dir);
      await ok(['commit', '-q', '-m', 'Big pages'], dir);
      await ok(['push', '-q', 'origin', 'HEAD:main'], dir);
      const head = (await ok(['rev-parse', 'HEAD'], dir)).trim();

      const destination = (await apiCall(kiln, 'GET', `/groups/${group.id}/repository_storage_moves`)).length % 2 === 0 ? 'storage2' : 'default';
      const move = await apiCall(kiln, 'POST', `/groups/${group.id}/repository_storage_moves`, { destination_storage_name: destination });
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      await kiln.kill9();
      kiln = await start();

      let state = '';
      const deadline = Date.now() + 40_000;
      while (Date.now() < deadline) {
        state = (await apiCall(kiln, 'GET', `/group_repository_storage_moves/${move.id}`)).state;
        if (state === 'finished' || state === 'failed') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(['finished', 'failed']).toContain(state);
      // Whatever the outcome, the repository is complete where Kiln now serves it, and writable.
      const check = join(work, `${path}-check`);
      await ok(['clone', '-q', remote, check]);
      expect((await ok(['rev-parse', 'HEAD'], check)).trim()).toBe(head);
      await ok(['fsck', '--no-progress'], check);
      writeFileSync(join(check, 'after.md'), 'after the crash\n');
      await ok(['add', '.'], check);
      await ok(['commit', '-q', '-m', 'After the crash'], check);
      const pushed = await git(['push', 'origin', 'HEAD:main'], check);
      expect(pushed.code, pushed.stderr).toBe(0);
    });
  }
});
