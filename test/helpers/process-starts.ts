// Sees every child process Kiln starts, for tests that mock node:child_process with it:
//   const started = vi.hoisted(() => [] as StartedProcess[]);
//   vi.mock('node:child_process', async (original) =>
//     (await import('../helpers/process-starts.js')).recordingChildProcess(await original(), started));
// Those on the event loop through the mock; those on git threads (src/repositories/git-threads.ts),
// which a mock does not reach, through the diagnostics channel `kiln:git-start` they are published on.
import type * as ChildProcessModule from 'node:child_process';
import { subscribe } from 'node:diagnostics_channel';

export interface StartedProcess {
  file: string;
  args: string[];
}

/** node:child_process with execFile and spawn noting each start in `started`, and the git threads' starts noted there too. */
export function recordingChildProcess(actual: typeof ChildProcessModule, started: StartedProcess[]): typeof ChildProcessModule {
  const note = (file: unknown, args: unknown) => started.push({ file: String(file), args: Array.isArray(args) ? args.map(String) : [] });
  subscribe('kiln:git-start', (message) => {
    const { file, args } = message as StartedProcess;
    note(file, args);
  });
  const execFile = ((file: string, args: unknown, ...rest: unknown[]) => {
    note(file, args);
    return (actual.execFile as (...all: unknown[]) => unknown)(file, args, ...rest);
  }) as unknown as typeof actual.execFile;
  const spawn = ((file: string, args: unknown, ...rest: unknown[]) => {
    note(file, args);
    return (actual.spawn as (...all: unknown[]) => unknown)(file, args, ...rest);
  }) as unknown as typeof actual.spawn;
  return { ...actual, execFile, spawn, default: { ...actual, execFile, spawn } } as typeof ChildProcessModule;
}
