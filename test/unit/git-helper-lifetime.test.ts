// The git helper processes (src/repositories/git-threads.ts) end with the process that started them,
// even when it is killed with SIGKILL and runs no exit handler: a crashed Kiln leaves no helper behind.
// They run from the build (dist/), as `kiln serve` does; `npm test` builds it first.
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const GIT_MODULE = join(process.cwd(), 'dist', 'src', 'repositories', 'git.js');

/** Runs git through the helpers (two at once, so that both start), then prints its own pid and waits. */
const STARTER = `
  import { runCommand } from ${JSON.stringify(pathToFileURL(GIT_MODULE).href)};
  await Promise.all([runCommand('git', ['--version']), runCommand('git', ['--version'])]);
  console.log(process.pid);
  setInterval(() => {}, 1000);
`;

/** The children of `pid` (its main thread's), from /proc. */
function childrenOf(pid: number): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return text === '' ? [] : text.split(/\s+/).map(Number);
}

/** Whether `pid` is a running process (a zombie, reaped or not, has ended). */
function running(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return false;
  try {
    // The state follows the command name, which is in parentheses.
    return !/^\S+ \(.*\) [ZX] /.test(readFileSync(stat, 'utf8'));
  } catch {
    return false;
  }
}

let starter: ChildProcess | undefined;

afterEach(() => {
  starter?.kill('SIGKILL');
});

describe('git helper processes', () => {
  it('end when the process that started them is killed with SIGKILL', async () => {
    expect(existsSync(GIT_MODULE), 'the build (npm run build)').toBe(true);
    starter = spawn(process.execPath, ['--input-type=module', '-e', STARTER], { stdio: ['ignore', 'pipe', 'inherit'] });
    const pid = await new Promise<number>((resolve, reject) => {
      starter!.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
      starter!.once('exit', (code) => reject(new Error(`the starter exited (${code}) before git ran`)));
    });
    const helpers = childrenOf(pid).filter((child) => readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('git-thread'));
    expect(helpers.length).toBeGreaterThan(0);
    expect(helpers.every(running)).toBe(true);

    process.kill(pid, 'SIGKILL');
    const deadline = Date.now() + 10_000;
    while (helpers.some(running) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(helpers.filter(running)).toEqual([]);
  }, 30_000);
});
