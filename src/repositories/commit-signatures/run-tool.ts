// gpgv and ssh-keygen on files in a scratch directory made for one verification and removed after
// it: no keyring, agent or configuration of anyone's is read, and nothing reaches a shell.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ToolOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

export function runTool(file: string, args: string[], input?: Buffer): Promise<ToolOutcome> {
  return new Promise((resolve) => {
    const child = execFile(file, args, { timeout: 10_000, maxBuffer: 1024 * 1024, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C' } }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input ?? Buffer.alloc(0));
  });
}

/** `work` with a scratch directory holding `files` (name → content), removed afterwards. */
export async function withScratch<T>(files: Record<string, Buffer | string>, work: (path: (name: string) => string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'kiln-signature-'));
  try {
    for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
    return await work((name) => join(dir, name));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
