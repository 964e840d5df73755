// Counts the child processes Kiln starts, for tests that mock node:child_process with it:
//   const starts = vi.hoisted(() => ({ count: 0 }));
//   vi.mock('node:child_process', async (original) =>
//     (await import('../helpers/process-starts.js')).countingChildProcess(await original(), starts));
import type * as ChildProcessModule from 'node:child_process';

export interface ProcessStarts {
  count: number;
}

export function countingChildProcess(actual: typeof ChildProcessModule, starts: ProcessStarts): typeof ChildProcessModule {
  const execFile = ((...args: unknown[]) => {
    starts.count += 1;
    return (actual.execFile as (...all: unknown[]) => unknown)(...args);
  }) as unknown as typeof actual.execFile;
  const spawn = ((...args: unknown[]) => {
    starts.count += 1;
    return (actual.spawn as (...all: unknown[]) => unknown)(...args);
  }) as unknown as typeof actual.spawn;
  return { ...actual, execFile, spawn, default: { ...actual, execFile, spawn } } as typeof ChildProcessModule;
}
