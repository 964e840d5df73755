// Helpers for tests that spawn the built `kiln` (dist/, built by `npm test` when sources changed).
import { spawn } from 'node:child_process';
import type { TestDatabase } from '../helpers/database.js';

export const MAIN = new URL('../../dist/src/main.js', import.meta.url).pathname;

/** KILN_DATABASE_URL for a child process on the test's PostgreSQL schema; empty on SQLite (the data dir decides). */
export function childDatabaseEnv(db: TestDatabase): Record<string, string> {
  if (!db.url || !db.schema) return {};
  const separator = db.url.includes('?') ? '&' : '?';
  return { KILN_DATABASE_URL: `${db.url}${separator}options=${encodeURIComponent(`-c search_path=${db.schema}`)}` };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run `node dist/src/main.js …args` with only the given environment (plus PATH). */
export function runKiln(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', KILN_LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}
