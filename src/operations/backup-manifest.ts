// backup.json: what a backup directory holds. It is written last, so a directory without it is an
// interrupted backup, and `kiln admin restore` reads it first.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from './usage-error.js';

export const MANIFEST = 'backup.json';
export const SQLITE_FILE = 'kiln.sqlite3';
export const POSTGRES_DUMP = 'database.pgdump';

export interface BackupManifest {
  format: 1;
  kiln_version: string;
  created_at: string;
  database: 'sqlite' | 'postgres';
  /** The file holding the database in the backup; null when the operator dumps PostgreSQL themselves. */
  database_file: string | null;
  /** The migrations the backed-up database had: a later Kiln applies the rest when it starts. */
  migrations: string[];
  secrets_fingerprint: string;
  /** Repositories as `<shard>/<disk path>` under repositories/ in the backup. */
  repositories: Array<{ shard: string; disk_path: string }>;
}

export function readManifest(directory: string): BackupManifest {
  const path = join(directory, MANIFEST);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(readFileSync(path, 'utf8')) as BackupManifest;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `${directory} is not a Kiln backup (it has no ${MANIFEST}; an interrupted backup has none)` : `${path} is unreadable: ${(error as Error).message}`);
  }
  if (manifest.format !== 1) throw new UsageError(`${path} has format ${String(manifest.format)}, which this Kiln does not know`);
  return manifest;
}
