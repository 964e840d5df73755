// The git helper processes (src/repositories/git-threads.ts) end with the process that started them,
// even when it is killed with SIGKILL and runs no exit handler: a crashed Kiln leaves no helper behind.
// They run from the build (dist/), as `kiln serve` does; `npm test` builds it first.
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { alive, childrenOf, waitFor } from '../platform/process-helpers.js';

const GIT_MODULE = new URL('../../dist/src/repositories/git.js', import.meta.url);

/** Runs git through the helpers (two at once, so that both start), then prints its own pid and waits. */
const STARTER = `
  import { runCommand } from ${JSON.stringify(GIT_MODULE.href)};
  await Promise.all([runCommand('git', ['--version']), runCommand('git', ['--version'])]);
  console.log(process.pid);
  setInterval(() => {}, 1000);
`;

let starter: ChildProcess | undefined;

afterEach(() => {
  starter?.kill('SIGKILL');
});

describe('git helper processes', () => {
  it('end when the process that started them is killed with SIGKILL', async () => {
    expect(existsSync(fileURLToPath(GIT_MODULE)), 'the build (npm run build)').toBe(true);
    starter = spawn(process.execPath, ['--input-type=module', '-e', STARTER], { stdio: ['ignore', 'pipe', 'inherit'] });
    const pid = await new Promise<number>((resolve, reject) => {
      starter!.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
      starter!.once('exit', (code) => reject(new Error(`the starter exited (${code}) before git ran`)));
    });
    const helpers = childrenOf(pid).filter((child) => readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('git-thread'));
    expect(helpers.length).toBeGreaterThan(0);
    expect(helpers.every(alive)).toBe(true);

    process.kill(pid, 'SIGKILL');
    await waitFor(`helpers ${helpers.join(', ')} to end`, () => !helpers.some(alive), 10_000);
  }, 30_000);
});
