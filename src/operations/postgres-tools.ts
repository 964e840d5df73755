// pg_dump and pg_restore for `kiln admin backup` and `restore` on PostgreSQL. The URL goes to them
// without its password, which travels in PGPASSWORD: arguments are visible to every user in `ps`.
import { execFile } from 'node:child_process';
import { withoutPassword } from '../config.js';

export class PostgresToolError extends Error {}

function connection(url: string): { dbname: string; env: Record<string, string> } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C' };
  if (password) env.PGPASSWORD = password;
  return { dbname: parsed.toString(), env };
}

function run(program: string, args: string[], url: string): Promise<void> {
  const { dbname, env } = connection(url);
  return new Promise((resolve, reject) => {
    execFile(program, [...args, '--dbname', dbname], { env, maxBuffer: 16 * 1024 * 1024 }, (error, _stdout, stderr) => {
      if (!error) return resolve();
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return reject(new PostgresToolError(`${program} is not on PATH: install the PostgreSQL client programs (the server's major version or newer)`));
      }
      const detail = stderr.trim().split('\n').filter(Boolean).slice(-1)[0] ?? error.message;
      reject(new PostgresToolError(`${program} failed on ${withoutPassword(url)}: ${detail}`));
    });
  });
}

/** A custom-format dump of Kiln's schema (the whole database when Kiln lives in `public`). */
export function pgDump(url: string, file: string, schema: string): Promise<void> {
  const only = schema === 'public' ? [] : ['--schema', schema];
  return run('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', '--file', file, ...only], url);
}

/** Into an empty database, all or nothing. */
export function pgRestore(url: string, file: string): Promise<void> {
  return run('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', file], url);
}
