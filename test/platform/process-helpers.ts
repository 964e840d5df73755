// Helpers for tests that spawn the built `kiln` (dist/, built by `npm test` when sources changed).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
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

/**
 * Another process at work on the same database: a child that begins a transaction (SQLite: BEGIN
 * IMMEDIATE on the file `target`, which takes the write lock; PostgreSQL: BEGIN on the URL `target`),
 * runs `statements` in it, and commits `ms` later. `held` resolves once the statements have run;
 * both promises reject if the child fails.
 */
export function holdTransaction(dialect: 'sqlite' | 'postgres', target: string, statements: string[], ms: number): { held: Promise<void>; exited: Promise<void> } {
  const list = JSON.stringify(statements);
  const script =
    dialect === 'postgres'
      ? `const client = new (require('pg').Client)({ connectionString: process.argv[1] });
         (async () => {
           await client.connect();
           await client.query('begin');
           for (const statement of ${list}) await client.query(statement);
           process.stdout.write('held');
           await new Promise((resolve) => setTimeout(resolve, ${ms}));
           await client.query('commit');
           await client.end();
         })();`
      : `const db = new (require('better-sqlite3'))(process.argv[1]);
         db.exec('begin immediate');
         for (const statement of ${list}) db.exec(statement);
         process.stdout.write('held');
         setTimeout(() => { db.exec('commit'); db.close(); }, ${ms});`;
  const child = spawn(process.execPath, ['-e', script, target], { cwd: fileURLToPath(new URL('../..', import.meta.url)), stdio: ['ignore', 'pipe', 'inherit'] });
  const held = new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the transaction's process exited with ${code} before it held the lock`)));
  });
  const exited = new Promise<void>((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the transaction's process exited with ${code}`)))));
  return { held, exited };
}

/**
 * The fields of /proc/<pid>/stat after the command name (which is in parentheses and may hold
 * spaces): the state, the parent pid, the process group, …; null once the process is gone.
 */
function statFields(pid: number | string): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** A process in `state` runs: one that exited but was not reaped yet (a zombie, or dead) has ended. */
const runs = (state: string | undefined) => state !== undefined && state !== 'Z' && state !== 'X';

/** Whether `pid` runs (a zombie counts as gone). */
export function alive(pid: number): boolean {
  return runs(statFields(pid)?.[0]);
}

function processesWhere(test: (fields: string[]) => boolean): number[] {
  return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).filter((entry) => {
    const fields = statFields(entry);
    return fields !== null && test(fields);
  }).map(Number);
}

/** The pids of `pid`'s child processes. */
export function childrenOf(pid: number): number[] {
  return processesWhere((fields) => Number(fields[1]) === pid);
}

/** The processes of group `pgid` that run (zombies left out). */
export function liveGroupMembers(pgid: number): number[] {
  return processesWhere((fields) => Number(fields[2]) === pgid && runs(fields[0]));
}
