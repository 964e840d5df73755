// bin/kiln, the `kiln` command: it starts Node with V8's collector on the main thread when the process
// may use one core (docs/operations/configuration.md, KILN_SINGLE_THREADED_GC). The Node it starts
// records its own flags through a module preloaded by NODE_OPTIONS.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const KILN = new URL('../../bin/kiln', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'kiln-launcher-'));
const probe = join(dir, 'probe.mjs');
writeFileSync(probe, "import { writeFileSync } from 'node:fs';\nwriteFileSync(process.env.PROBE_OUT, JSON.stringify(process.execArgv));\n");
const taskset = existsSync('/usr/bin/taskset');

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `kiln --version` (through taskset on `cores` when given): its exit code, standard error and Node's flags. */
function launch(env: Record<string, string>, cores?: string): { code: number | null; stderr: string; execArgv: string[] | null } {
  const out = join(dir, `flags-${Math.random().toString(36).slice(2)}.json`);
  const command = cores ? ['taskset', '-c', cores, KILN, '--version'] : [KILN, '--version'];
  const result = spawnSync(command[0], command.slice(1), { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', NODE_OPTIONS: `--import=${probe}`, PROBE_OUT: out, ...env }, encoding: 'utf8' });
  return { code: result.status, stderr: result.stderr, execArgv: existsSync(out) ? (JSON.parse(readFileSync(out, 'utf8')) as string[]) : null };
}

describe('bin/kiln', () => {
  it.skipIf(!taskset)('runs the collector on the main thread when the process may use one core', () => {
    const run = launch({}, '0');
    expect(run.code).toBe(0);
    expect(run.execArgv).toContain('--single-threaded-gc');
  });

  it.skipIf(!taskset || availableParallelism() < 2)('leaves V8 its helper threads when the process may use more cores', () => {
    const run = launch({}, '0,1');
    expect(run.code).toBe(0);
    expect(run.execArgv).not.toContain('--single-threaded-gc');
  });

  it.skipIf(!taskset)('follows KILN_SINGLE_THREADED_GC over the cores it sees', () => {
    expect(launch({ KILN_SINGLE_THREADED_GC: 'false' }, '0').execArgv).not.toContain('--single-threaded-gc');
    expect(launch({ KILN_SINGLE_THREADED_GC: 'true' }).execArgv).toContain('--single-threaded-gc');
    expect(launch({ KILN_SINGLE_THREADED_GC: 'auto' }, '0').execArgv).toContain('--single-threaded-gc');
  });

  it('refuses another value of KILN_SINGLE_THREADED_GC with exit code 2, naming it, before Node starts', () => {
    const run = launch({ KILN_SINGLE_THREADED_GC: 'yes' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('KILN_SINGLE_THREADED_GC must be auto, true or false, not "yes"');
    expect(run.execArgv).toBeNull();
  });
});
