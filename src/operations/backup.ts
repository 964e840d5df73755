// `kiln admin backup <dir>`: a consistent backup of a running instance while it keeps writing.
// The database comes first — SQLite through `VACUUM INTO` (one read transaction: a snapshot holding
// every commit acknowledged before it began, while writers go on in the WAL), PostgreSQL through
// pg_dump (one snapshot too) — then the secrets, then every repository the snapshot knows, as a git
// bundle of its refs and objects (repository-bundles.ts: never its configuration or hooks), then the
// files of the LFS objects and Markdown uploads it knows.
// Repositories bundled after the snapshot are at least as new as what the database says of them,
// which is the direction a restore can live with (GitLab backs up in the same order).
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { ConfigError, type Config } from '../config.js';
import { openPostgres } from '../platform/db/database.js';
import { readSecrets, secretsFingerprint, secretsPath, SECRETS_FILE } from '../platform/secrets.js';
import { KILN_VERSION } from '../platform/version.js';
import { bundleRepository } from './repository-bundles.js';
import { lfsObjectPath } from '../repositories/api.js';
import { uploadFilePath } from '../uploads/api.js';
import { bundlePath, FORMAT, lfsBackupPath, MANIFEST, POSTGRES_DUMP, SQLITE_FILE, uploadBackupPath, type BackupLfsObject, type BackupManifest, type BackupUpload } from './backup-manifest.js';
import { pgDump } from './postgres-tools.js';
import { UsageError } from '../platform/errors.js';
import { currentSchema, postgresRows, readCheckedCopy, SNAPSHOT_READS, vacuumInto, type Rows } from './snapshot-queries.js';

interface Snapshot {
  migrations: string[];
  fingerprint: string | null;
  repositories: Array<{ shard: string; disk_path: string }>;
  lfsObjects: BackupLfsObject[];
  uploads: BackupUpload[];
}

export interface BackupOptions {
  /** PostgreSQL only: the operator dumps the database themselves, before running the command. */
  skipDatabase?: boolean;
  say(line: string): void;
}

/** A new directory, or an empty one: a backup never mixes with another. Mode 0700: it holds the secrets. */
function prepareTarget(target: string): void {
  if (existsSync(target) && readdirSync(target).length > 0) throw new UsageError(`${target} is not empty: back up into a new directory`);
  mkdirSync(target, { recursive: true, mode: 0o700 });
  chmodSync(target, 0o700);
}

function sqliteSnapshot(config: Config, target: string): Snapshot {
  const source = join(config.dataDir, SQLITE_FILE);
  if (!existsSync(source)) throw new ConfigError(`KILN_DATA_DIR ${config.dataDir} has no ${SQLITE_FILE}: nothing to back up`);
  vacuumInto(source, join(target, SQLITE_FILE));
  chmodSync(join(target, SQLITE_FILE), 0o600); // password hashes, token digests, encrypted values
  return readCheckedCopy(join(target, SQLITE_FILE), readSnapshot);
}

function readSnapshot(all: Rows): Snapshot {
  const migrations = all(SNAPSHOT_READS.migrations).map((row) => String(row.name));
  let fingerprint: string | null = null;
  try {
    fingerprint = (all(SNAPSHOT_READS.fingerprint)[0]?.fingerprint as string | undefined) ?? null;
  } catch {
    // A database from before the fingerprint: the secrets file is taken as it is.
  }
  const repositories = all(SNAPSHOT_READS.repositories).map((row) => ({ shard: String(row.shard), disk_path: String(row.disk_path) }));
  return { migrations, fingerprint, repositories, lfsObjects: lfsRows(all(SNAPSHOT_READS.lfsObjects)), uploads: uploadRows(all(SNAPSHOT_READS.uploads)) };
}

function uploadRows(rows: Array<Record<string, unknown>>): BackupUpload[] {
  return rows.map((row) => ({ project_id: Number(row.project_id), secret: String(row.secret), size: Number(row.size) }));
}

function lfsRows(rows: Array<Record<string, unknown>>): BackupLfsObject[] {
  return rows.map((row) => ({ oid: String(row.oid), size: Number(row.size) }));
}

async function postgresSnapshot(config: Config, target: string, options: BackupOptions): Promise<Snapshot & { dumped: boolean }> {
  const database = openPostgres({ url: config.databaseUrl!, poolSize: 1 });
  try {
    if (!options.skipDatabase) await pgDump(config.databaseUrl!, join(target, POSTGRES_DUMP), await currentSchema(database.db));
    // Read after the dump: the live database knows every repository the dump knows, and perhaps more.
    const all = (text: string) => postgresRows(database.db, text);
    const migrations = (await all(SNAPSHOT_READS.migrations)).map((row) => String(row.name));
    const fingerprint = (await all(SNAPSHOT_READS.fingerprint).catch(() => []))[0]?.fingerprint as string | undefined;
    const repositories = (await all(SNAPSHOT_READS.repositories)).map((row) => ({ shard: String(row.shard), disk_path: String(row.disk_path) }));
    const lfsObjects = lfsRows(await all(SNAPSHOT_READS.lfsObjects));
    const uploads = uploadRows(await all(SNAPSHOT_READS.uploads));
    return { migrations, fingerprint: fingerprint ?? null, repositories, lfsObjects, uploads, dumped: !options.skipDatabase };
  } finally {
    await database.close();
  }
}

/** Where a repository is now: its shard, or (moved meanwhile) another configured shard. */
function locate(config: Config, shard: string, diskPath: string): string | null {
  const preferred = config.storages.find((candidate) => candidate.name === shard);
  for (const candidate of [preferred, ...config.storages].filter(Boolean)) {
    const path = join(candidate!.path, diskPath);
    if (existsSync(join(path, 'HEAD'))) return path;
  }
  return null;
}

/**
 * Each file the database knows copied into the backup (LFS objects, uploads). A file that is gone
 * (removed after the snapshot, or lost) is left out of the manifest.
 */
async function copyFiles<T>(items: T[], from: (item: T) => string, to: (item: T) => string): Promise<T[]> {
  const copied: T[] = [];
  for (const item of items) {
    const destination = to(item);
    try {
      mkdirSync(dirname(destination), { recursive: true, mode: 0o700 });
      await copyFile(from(item), destination);
      copied.push(item);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return copied;
}

export async function backup(config: Config, directory: string, options: BackupOptions): Promise<BackupManifest> {
  const target = resolve(directory);
  if (options.skipDatabase && !config.databaseUrl) throw new UsageError('--skip-database is for PostgreSQL (KILN_DATABASE_URL); a SQLite database is always in the backup');
  const secrets = readSecrets(config.dataDir);
  if (!secrets) throw new ConfigError(`KILN_DATA_DIR ${config.dataDir} has no ${SECRETS_FILE}: is it Kiln's data dir?`);
  prepareTarget(target);
  try {
    options.say(`backing up the database${config.databaseUrl ? (options.skipDatabase ? ' (skipped: --skip-database)' : ' with pg_dump') : ''}`);
    const snapshot = config.databaseUrl ? await postgresSnapshot(config, target, options) : sqliteSnapshot(config, target);
    const fingerprint = secretsFingerprint(secrets);
    if (snapshot.fingerprint && snapshot.fingerprint !== fingerprint) {
      throw new ConfigError(`KILN_DATA_DIR: ${secretsPath(config.dataDir)} is not the secrets file this database was initialised with; back up from a node that runs on it`);
    }
    copyFileSync(secretsPath(config.dataDir), join(target, SECRETS_FILE));
    chmodSync(join(target, SECRETS_FILE), 0o600);

    const copied: BackupManifest['repositories'] = [];
    const missing: string[] = [];
    for (const repository of snapshot.repositories) {
      const source = locate(config, repository.shard, repository.disk_path);
      // A row whose repository was never initialised on disk (created lazily on first use) has nothing to copy.
      if (!source) {
        missing.push(`${repository.shard}/${repository.disk_path}`);
        continue;
      }
      copied.push({ ...repository, ...(await bundleRepository(source, bundlePath(target, repository))) });
    }
    options.say(`copied ${copied.length} ${copied.length === 1 ? 'repository' : 'repositories'}${missing.length ? ` (${missing.length} not on disk yet: ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''})` : ''}`);

    const lfsObjects = await copyFiles(snapshot.lfsObjects, (object) => lfsObjectPath(config.lfsPath, object.oid), (object) => lfsBackupPath(target, object.oid));
    options.say(`copied ${lfsObjects.length} LFS ${lfsObjects.length === 1 ? 'object' : 'objects'}${lfsObjects.length < snapshot.lfsObjects.length ? ` (${snapshot.lfsObjects.length - lfsObjects.length} no longer on disk)` : ''}`);
    const uploads = await copyFiles(snapshot.uploads, (upload) => uploadFilePath(config.uploadsPath, upload.project_id, upload.secret), (upload) => uploadBackupPath(target, upload));
    options.say(`copied ${uploads.length} ${uploads.length === 1 ? 'upload' : 'uploads'}${uploads.length < snapshot.uploads.length ? ` (${snapshot.uploads.length - uploads.length} no longer on disk)` : ''}`);

    const manifest: BackupManifest = {
      format: FORMAT,
      kiln_version: KILN_VERSION,
      created_at: new Date().toISOString(),
      database: config.databaseUrl ? 'postgres' : 'sqlite',
      database_file: config.databaseUrl ? (options.skipDatabase ? null : POSTGRES_DUMP) : SQLITE_FILE,
      migrations: snapshot.migrations,
      secrets_fingerprint: fingerprint,
      repositories: copied,
      lfs_objects: lfsObjects,
      uploads,
    };
    writeFileSync(join(target, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    return manifest;
  } catch (error) {
    // Half a backup must not pass for one: without backup.json restore refuses it, and we clean up.
    rmSync(target, { recursive: true, force: true });
    throw error;
  }
}
