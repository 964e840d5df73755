// The system git, run in a scratch home with a fixed identity and no system configuration, so tests
// see the same git behaviour on every machine.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `home` is read at call time, because test files create their scratch directory in beforeAll. */
export function gitCommands(home: () => string) {
  const run = (args: string[], cwd = home()): Promise<GitResult> =>
    new Promise((resolve) => {
      execFile(
        'git',
        ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', ...args],
        { cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home(), GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' }, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  const ok = async (args: string[], cwd = home()): Promise<string> => {
    const result = await run(args, cwd);
    if (result.code !== 0) throw new Error(`git ${args.join(' ')} failed:\n${result.stderr}`);
    return result.stdout;
  };
  return { run, ok };
}

/** Two shards under `work`: `default` (weight 100) and `storage2` (weight 0), as the move suites use. */
export function twoShards(work: string) {
  return [
    { name: 'default', path: join(work, 'shards', 'default'), weight: 100 },
    { name: 'storage2', path: join(work, 'shards', 'storage2'), weight: 0 },
  ];
}

/** Start the test app's HTTP server on a free loopback port (git needs a real socket) and give its base URL. */
export async function listenOnLoopback(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}
