// Running the command blocks of docs/operations/ as written: find a block by a line it contains, put
// this machine's paths and ports in place of the guide's examples, and run it with bash from the
// repository root (where `npx kiln` finds the checkout's command).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fencedBlocks } from '../helpers/markdown-commands.js';

export const REPO = new URL('../..', import.meta.url).pathname;

/** The text of the fenced block of docs/operations/<page> that contains `line`. */
export function guideBlock(page: string, line: string): string {
  const blocks = fencedBlocks(readFileSync(join(REPO, 'docs', 'operations', page), 'utf8')).filter((block) => block.text.includes(line));
  if (blocks.length !== 1) throw new Error(`docs/operations/${page}: ${blocks.length} blocks contain ${JSON.stringify(line)}`);
  return blocks[0].text;
}

/** The guide's example values replaced, longest first (so `/backups/kiln-2026-11-24` wins over `/backups`). */
export function localise(text: string, replacements: Record<string, string>): string {
  return Object.keys(replacements)
    .sort((a, b) => b.length - a.length)
    .reduce((result, example) => result.replaceAll(example, replacements[example]), text);
}

/** Only what a shell needs, plus the test's variables: nothing of the test process leaks in. */
export function shellEnv(variables: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', KILN_LOG_LEVEL: 'warn', ...variables };
}

export interface ShellResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr in the order they were written. */
  output: string;
}

/** `bash -e -c script`: the block stops at its first failing command, as an operator would. */
export function runShell(script: string, env: Record<string, string>): Promise<ShellResult> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-e', '-c', script], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const result: ShellResult = { code: null, stdout: '', stderr: '', output: '' };
    child.stdout.on('data', (chunk) => ((result.stdout += chunk), (result.output += chunk)));
    child.stderr.on('data', (chunk) => ((result.stderr += chunk), (result.output += chunk)));
    child.once('close', (code) => resolve({ ...result, code }));
  });
}

export interface ServingShell {
  child: ChildProcess;
  output(): string;
  /** SIGTERM to the whole process group (bash, npx, kiln), then wait for bash. */
  stop(): Promise<void>;
}

/** A block whose last command is `npx kiln serve`: run in its own process group until stopped. */
export function startShell(script: string, env: Record<string, string>): ServingShell {
  const child = spawn('bash', ['-e', '-c', script], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return {
    child,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid!, 'SIGTERM');
        } catch {
          // already gone
        }
      }
      await closed;
    },
  };
}

/** Waits until `url`/-/readiness answers 200, failing early with the output when the shell ends. */
export async function waitUntilReady(shell: ServingShell, url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (shell.child.exitCode !== null) throw new Error(`the block ended (exit ${shell.child.exitCode}) before Kiln was ready:\n${shell.output()}`);
    try {
      if ((await fetch(`${url}/-/readiness`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Kiln was not ready at ${url} after ${timeoutMs} ms:\n${shell.output()}`);
}

/** The `$ command` lines of a console block, each with the lines it printed. */
export function consoleSessions(text: string): Array<{ command: string; output: string }> {
  const sessions: Array<{ command: string; lines: string[] }> = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('$ ')) sessions.push({ command: line.slice(2), lines: [] });
    else if (sessions.length > 0) sessions.at(-1)!.lines.push(line);
  }
  return sessions.map(({ command, lines }) => ({ command, output: lines.length ? `${lines.join('\n')}\n` : '' }));
}

const MARK = '@@kiln-docs-step-exit ';

export interface Step {
  command: string;
  output: string;
  code: number;
}

/** Runs the commands in one bash, each followed by a marker with its exit code, and splits stdout by them. */
export function runSteps(commands: string[], env: Record<string, string>): Promise<{ steps: Step[]; stderr: string }> {
  const script = commands.map((command) => `${command}\nprintf '\\n${MARK}%s\\n' "$?"`).join('\n');
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('close', () => {
      const parts = stdout.split(new RegExp(`\\n${MARK}(\\d+)\\n`));
      const steps = commands.map((command, index) => ({ command, output: parts[index * 2] ?? '', code: Number(parts[index * 2 + 1] ?? -1) }));
      resolve({ steps, stderr });
    });
  });
}
