// `kiln admin restore <dir>`: a backup into an empty data dir (and empty shards), with Kiln stopped
// on it. SQLite: the database file; PostgreSQL: pg_restore into an empty database (or, for a backup
// made with --skip-database, the operator's own restore, checked here by its secrets fingerprint).
// Then the secrets, the repositories, each made anew from its bundle (repository-bundles.ts), and the
// LFS objects, each stored as an upload is, with its SHA-256 and size checked, and the Markdown
// uploads, each with its size checked. A
// backup is not trusted: its manifest is checked whole first (checkManifest), and anything unexpected
// refuses the restore with exit code 2 before anything is written. A restored database from an older
// Kiln is migrated by the first start, as any upgrade.
import { chmodSync, copyFileSync, createReadStream, existsSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError, withoutPassword, type Config } from '../config.js';
import { ensurePrivateDirectory } from '../platform/data-dir.js';
import { openPostgres } from '../platform/db/database.js';
import { ensurePgTrgm } from '../platform/db/extensions.js';
import { SECRETS_FILE, secretsPath } from '../platform/secrets.js';
import { bundlePath, checkBackupFile, checkManifest, lfsBackupPath, readManifest, SQLITE_FILE, uploadBackupPath, type BackupManifest } from './backup-manifest.js';
import { uploadFilePath } from '../uploads/api.js';
import { LfsObjectTooLarge, storeLfsObject } from '../repositories/api.js';
import { restoreBundle } from './repository-bundles.js';
import { checkWritableDirectory } from './preflight.js';
import { pgRestore } from './postgres-tools.js';
import { recordedFingerprint } from './secrets-check.js';
import { UsageError } from '../platform/errors.js';
import { hasMigrationsTable } from './snapshot-queries.js';

function isEmptyDirectory(path: string): boolean {
  return !existsSync(path) || readdirSync(path).length === 0;
}

/** Everything refused before anything is written. */
function checkTargets(config: Config, manifest: BackupManifest): void {
  const wanted = manifest.database === 'postgres' ? 'PostgreSQL' : 'SQLite';
  if ((manifest.database === 'postgres') !== Boolean(config.databaseUrl)) {
    throw new ConfigError(`KILN_DATABASE_URL ${config.databaseUrl ? `is set (${withoutPassword(config.databaseUrl)})` : 'is unset'}, but the backup holds a ${wanted} database`);
  }
  if (!isEmptyDirectory(config.dataDir)) throw new ConfigError(`KILN_DATA_DIR ${config.dataDir} is not empty: restore into a new data dir`);
  for (const repository of manifest.repositories) {
    const shard = config.storages.find((candidate) => candidate.name === repository.shard);
    if (!shard) throw new ConfigError(`KILN_STORAGES has no shard "${repository.shard}", which the backup's repositories are on`);
    const destination = join(shard.path, repository.disk_path);
    if (existsSync(destination)) throw new ConfigError(`KILN_STORAGES (shard "${shard.name}"): ${destination} exists already; restore into empty shards`);
  }
  if (manifest.lfs_objects?.length && !isEmptyDirectory(config.lfsPath)) throw new ConfigError(`KILN_LFS_PATH ${config.lfsPath} is not empty: restore into a new directory`);
  if (manifest.uploads?.length && !isEmptyDirectory(config.uploadsPath)) throw new ConfigError(`KILN_UPLOADS_PATH ${config.uploadsPath} is not empty: restore into a new directory`);
}

/**
 * Each upload of the backup copied into KILN_UPLOADS_PATH when its file has the size the manifest
 * gives (a file that does not is left out). The uploads left out, as `<project id>/<secret>`.
 */
function restoreUploads(config: Config, source: string, manifest: BackupManifest): string[] {
  const refused: string[] = [];
  for (const upload of manifest.uploads ?? []) {
    const from = uploadBackupPath(source, upload);
    if (statSync(from).size !== upload.size) {
      refused.push(`${upload.project_id}/${upload.secret}`);
      continue;
    }
    const to = uploadFilePath(config.uploadsPath, upload.project_id, upload.secret);
    mkdirSync(dirname(to), { recursive: true, mode: 0o750 });
    copyFileSync(from, to);
  }
  return refused;
}

/**
 * Each LFS object of the backup stored anew, its SHA-256 and size checked as an upload's: a file that
 * is not its oid's content is left out. The oids left out, if any.
 */
async function restoreLfsObjects(config: Config, source: string, manifest: BackupManifest): Promise<string[]> {
  const refused: string[] = [];
  for (const object of manifest.lfs_objects ?? []) {
    let result;
    try {
      result = await storeLfsObject(config.lfsPath, object.oid, object.size, createReadStream(lfsBackupPath(source, object.oid)));
    } catch (error) {
      if (!(error instanceof LfsObjectTooLarge)) throw error;
      result = 'mismatch';
    }
    if (result === 'mismatch') refused.push(object.oid);
  }
  return refused;
}

/**
 * What the PostgreSQL database must be, checked before anything is written: empty for a backup with a
 * dump; for a --skip-database backup, the operator's restored dump of this very instance.
 */
async function checkPostgresTarget(config: Config, manifest: BackupManifest): Promise<void> {
  const database = openPostgres({ url: config.databaseUrl!, poolSize: 1 });
  try {
    const initialised = await hasMigrationsTable(database.db);
    if (manifest.database_file) {
      if (initialised) throw new ConfigError(`KILN_DATABASE_URL ${withoutPassword(config.databaseUrl!)} is not empty: restore into a new database (createdb)`);
      // A dump of Kiln's own schema does not carry the database's extensions its indexes use.
      await ensurePgTrgm(database.db);
      return;
    }
    if (!initialised) throw new UsageError(`this backup holds no database (made with --skip-database): restore your PostgreSQL dump into ${withoutPassword(config.databaseUrl!)} first, then run restore again`);
    const recorded = await recordedFingerprint(database.db).catch(() => null);
    if (recorded && recorded !== manifest.secrets_fingerprint) throw new UsageError(`the database at ${withoutPassword(config.databaseUrl!)} was initialised with other secrets than this backup's: it is not this instance's dump`);
  } finally {
    await database.close();
  }
}

export async function restore(config: Config, directory: string, say: (line: string) => void): Promise<void> {
  const source = resolve(directory);
  const manifest = readManifest(source);
  checkManifest(manifest, source, config);
  checkBackupFile(source, join(source, SECRETS_FILE), SECRETS_FILE);
  checkTargets(config, manifest);
  if (manifest.database === 'postgres') await checkPostgresTarget(config, manifest);
  checkWritableDirectory('KILN_DATA_DIR', config.dataDir);
  // 0700 like the data dir it came from, also when the operator made the empty directory beforehand.
  ensurePrivateDirectory(config.dataDir);

  let database: string;
  if (manifest.database === 'sqlite') {
    // Through a temporary name: a data dir never holds half a database under the real one.
    const temporary = join(config.dataDir, `${SQLITE_FILE}.restoring`);
    copyFileSync(join(source, SQLITE_FILE), temporary);
    chmodSync(temporary, 0o600);
    renameSync(temporary, join(config.dataDir, SQLITE_FILE));
    database = 'the database';
  } else if (manifest.database_file) {
    await pgRestore(config.databaseUrl!, join(source, manifest.database_file));
    database = 'the database (pg_restore)';
  } else {
    // --skip-database: the operator restored their own dump first (checked above).
    database = 'nothing of the database (restored by you)';
  }
  copyFileSync(join(source, SECRETS_FILE), secretsPath(config.dataDir));
  chmodSync(secretsPath(config.dataDir), 0o600);

  for (const repository of manifest.repositories) {
    const shard = config.storages.find((candidate) => candidate.name === repository.shard)!;
    const destination = join(shard.path, repository.disk_path);
    checkWritableDirectory(`KILN_STORAGES (shard "${shard.name}")`, dirname(destination));
    await restoreBundle(repository.empty ? null : bundlePath(source, repository), destination, repository.head);
  }
  const lfsCount = manifest.lfs_objects?.length ?? 0;
  const refused = await restoreLfsObjects(config, source, manifest);
  if (lfsCount) say(`restored ${lfsCount - refused.length} LFS ${lfsCount - refused.length === 1 ? 'object' : 'objects'}, each checked against its oid`);
  const uploadCount = manifest.uploads?.length ?? 0;
  const refusedUploads = restoreUploads(config, source, manifest);
  if (uploadCount) say(`restored ${uploadCount - refusedUploads.length} ${uploadCount - refusedUploads.length === 1 ? 'upload' : 'uploads'}`);
  say(`restored ${database}, ${SECRETS_FILE} and ${manifest.repositories.length} ${manifest.repositories.length === 1 ? 'repository' : 'repositories'} from ${source} (Kiln ${manifest.kiln_version}, ${manifest.created_at})`);
  if (refusedUploads.length) {
    throw new Error(`${refusedUploads.length} ${refusedUploads.length === 1 ? 'upload does' : 'uploads do'} not have the size the backup gives and ${refusedUploads.length === 1 ? 'was' : 'were'} left out: ${refusedUploads.slice(0, 5).join(', ')}${refusedUploads.length > 5 ? ', …' : ''}`);
  }
  if (refused.length) {
    throw new Error(`${refused.length} LFS ${refused.length === 1 ? 'object does' : 'objects do'} not match ${refused.length === 1 ? 'its' : 'their'} oid in the backup and ${refused.length === 1 ? 'was' : 'were'} left out: ${refused.slice(0, 5).join(', ')}${refused.length > 5 ? ', …' : ''}`);
  }
}
