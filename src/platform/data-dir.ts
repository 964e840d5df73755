// The data directory and the files in it hold the instance's secrets, the database and initial
// credentials: readable by Kiln's own user only (directory 0700, files 0600), as GitLab's packages
// keep their data directories. Places created before this rule are tightened when Kiln starts.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Remove group and other access from `path` when it has some, unless it is shared on purpose. */
function tighten(path: string, mode: number): void {
  const stat = statSync(path);
  // A sticky directory (/tmp) is meant to be shared: never take it over.
  if ((stat.mode & 0o1000) !== 0 || (stat.mode & 0o077) === 0) return;
  try {
    chmodSync(path, mode);
  } catch (error) {
    // Owned by someone else: not ours to change (the operator chose it).
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
  }
}

/** Create the data directory (and missing parents) private, or make an existing one private. */
export function ensurePrivateDirectory(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  tighten(dir, PRIVATE_DIR_MODE);
}

/**
 * Make `file` exist with mode 0600 before a library opens it, and tighten the files that share its
 * permissions (SQLite gives its -wal and -shm files the mode of the database file).
 */
export function ensurePrivateFile(file: string, companions: string[] = []): void {
  if (!existsSync(file)) closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  for (const path of [file, ...companions]) if (existsSync(path)) tighten(path, PRIVATE_FILE_MODE);
}
