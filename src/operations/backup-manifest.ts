// backup.json: what a backup directory holds. It is written last, so a directory without it is an
// interrupted backup, and `kiln admin restore` reads it first. A backup may come from anywhere: the
// manifest is checked whole before anything is written (checkManifest), and anything unexpected in
// it refuses the restore.
import { lstatSync, readFileSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { Config } from '../config.js';
import { UsageError } from '../platform/errors.js';
import { validHead } from './repository-bundles.js';
import { LFS_OID, lfsObjectPath } from '../repositories/api.js';
import { UPLOAD_SECRET, uploadFilePath } from '../uploads/api.js';

export const MANIFEST = 'backup.json';
export const SQLITE_FILE = 'kiln.sqlite3';
export const POSTGRES_DUMP = 'database.pgdump';

/** Format 2: repositories as bundles. Format 1 (Kiln before issue 33) held copies of repository directories. */
export const FORMAT = 2;

export interface BackupRepository {
  shard: string;
  /** Where it lives in its shard: Kiln's hashed layout, nothing else (DISK_PATH). */
  disk_path: string;
  head: string | null;
  /** No refs, no bundle: restored as a new empty repository. */
  empty: boolean;
}

export interface BackupManifest {
  format: typeof FORMAT;
  kiln_version: string;
  created_at: string;
  database: 'sqlite' | 'postgres';
  /** The file holding the database in the backup; null when the operator dumps PostgreSQL themselves. */
  database_file: string | null;
  /** The migrations the backed-up database had: a later Kiln applies the rest when it starts. */
  migrations: string[];
  secrets_fingerprint: string;
  /** Repositories, each as `repositories/<shard>/<disk path>.bundle` in the backup. */
  repositories: BackupRepository[];
  /** Git LFS objects, each as `lfs-objects/<oid path>` in the backup (absent in backups from before them). */
  lfs_objects?: BackupLfsObject[];
  /** Markdown uploads, each as `uploads/<project id>/<secret>` in the backup (absent in backups from before them). */
  uploads?: BackupUpload[];
}

export interface BackupUpload {
  project_id: number;
  secret: string;
  size: number;
}

export const UPLOADS_DIRECTORY = 'uploads';

/** An upload's file in the backup directory (its secret checked by uploadFilePath). */
export function uploadBackupPath(directory: string, upload: Pick<BackupUpload, 'project_id' | 'secret'>): string {
  return uploadFilePath(join(directory, UPLOADS_DIRECTORY), upload.project_id, upload.secret);
}

export interface BackupLfsObject {
  oid: string;
  size: number;
}

export const LFS_DIRECTORY = 'lfs-objects';

/** An LFS object's file in the backup directory (its oid checked by lfsObjectPath). */
export function lfsBackupPath(directory: string, oid: string): string {
  return lfsObjectPath(join(directory, LFS_DIRECTORY), oid);
}

/** Kiln's repository paths (repositories/ensure-repository.ts, diskPathFor): projects and their wikis, group wikis, snippets. */
const DISK_PATH = /^@(hashed|groups|snippets)\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}(\.wiki)?\.git$/;
const REPOSITORY_KEYS = new Set(['shard', 'disk_path', 'head', 'empty']);

/** The bundle of a repository in the backup directory. */
export function bundlePath(directory: string, repository: Pick<BackupRepository, 'shard' | 'disk_path'>): string {
  return join(directory, 'repositories', repository.shard, `${repository.disk_path}.bundle`);
}

function refuse(reason: string): never {
  throw new UsageError(`${MANIFEST} ${reason}: refusing to restore this backup`);
}

/** A regular file inside the backup directory itself: no symlink to elsewhere, at any depth. */
export function checkBackupFile(directory: string, path: string, what: string): void {
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    refuse(`names ${what}, which the backup does not hold`);
  }
  const root = realpathSync(directory);
  if (!stat.isFile() || !realpathSync(path).startsWith(root + sep)) refuse(`names ${what}, which is not a regular file inside the backup`);
}

/**
 * Everything a restore will read or write, checked before it writes anything: the database file is the
 * one its kind has, every repository is on a configured shard at one of Kiln's own paths, listed once,
 * with a branch for HEAD and a bundle that is a regular file inside the backup.
 */
export function checkManifest(manifest: BackupManifest, directory: string, config: Config): void {
  const expectedFile = manifest.database === 'sqlite' ? SQLITE_FILE : manifest.database === 'postgres' ? POSTGRES_DUMP : refuse(`has database "${String(manifest.database)}"`);
  if (manifest.database_file !== expectedFile && !(manifest.database === 'postgres' && manifest.database_file === null)) refuse(`names the database file "${String(manifest.database_file)}"`);
  if (manifest.database_file) checkBackupFile(directory, join(directory, manifest.database_file), manifest.database_file);
  if (!Array.isArray(manifest.repositories)) refuse('has no list of repositories');
  const seen = new Set<string>();
  for (const repository of manifest.repositories) {
    const described = JSON.stringify(repository);
    if (typeof repository !== 'object' || repository === null || Object.keys(repository).some((key) => !REPOSITORY_KEYS.has(key))) refuse(`has a repository entry ${described}`);
    if (!config.storages.some((shard) => shard.name === repository.shard)) refuse(`names shard "${String(repository.shard)}", which KILN_STORAGES does not configure`);
    if (typeof repository.disk_path !== 'string' || !DISK_PATH.test(repository.disk_path)) refuse(`names the repository path ${JSON.stringify(repository.disk_path)}, which is not one of Kiln's`);
    if (repository.head !== null && !validHead(repository.head)) refuse(`gives ${repository.disk_path} the HEAD ${JSON.stringify(repository.head)}, which is not a branch`);
    if (typeof repository.empty !== 'boolean') refuse(`has a repository entry ${described}`);
    const key = `${repository.shard}/${repository.disk_path}`;
    if (seen.has(key)) refuse(`lists ${key} twice`);
    seen.add(key);
    if (!repository.empty) checkBackupFile(directory, bundlePath(directory, repository), `the bundle of ${key}`);
  }
  checkLfsObjects(manifest, directory);
  checkUploads(manifest, directory);
}

const UPLOAD_KEYS = new Set(['project_id', 'secret', 'size']);

/** Each upload once, by a project id and a secret (never a path), as a regular file inside the backup. */
function checkUploads(manifest: BackupManifest, directory: string): void {
  if (manifest.uploads === undefined) return;
  if (!Array.isArray(manifest.uploads)) refuse('has a list of uploads that is not a list');
  const seen = new Set<string>();
  for (const upload of manifest.uploads) {
    const described = JSON.stringify(upload);
    if (typeof upload !== 'object' || upload === null || Object.keys(upload).some((key) => !UPLOAD_KEYS.has(key))) refuse(`has an upload entry ${described}`);
    if (!Number.isSafeInteger(upload.project_id) || upload.project_id < 1 || !Number.isSafeInteger(upload.size) || upload.size < 0) refuse(`has an upload entry ${described}`);
    if (typeof upload.secret !== 'string' || !UPLOAD_SECRET.test(upload.secret)) refuse(`names the upload ${JSON.stringify(upload.secret)}, which is not an upload secret`);
    const key = `${upload.project_id}/${upload.secret}`;
    if (seen.has(key)) refuse(`lists the upload ${key} twice`);
    seen.add(key);
    checkBackupFile(directory, uploadBackupPath(directory, upload), `the upload ${key}`);
  }
}

/** Each LFS object once, by an oid (never a path), with a size, as a regular file inside the backup. */
function checkLfsObjects(manifest: BackupManifest, directory: string): void {
  if (manifest.lfs_objects === undefined) return;
  if (!Array.isArray(manifest.lfs_objects)) refuse('has a list of LFS objects that is not a list');
  const seen = new Set<string>();
  for (const object of manifest.lfs_objects) {
    const described = JSON.stringify(object);
    if (typeof object !== 'object' || object === null || Object.keys(object).some((key) => key !== 'oid' && key !== 'size')) refuse(`has an LFS object entry ${described}`);
    if (typeof object.oid !== 'string' || !LFS_OID.test(object.oid)) refuse(`names the LFS object ${JSON.stringify(object.oid)}, which is not a SHA-256 oid`);
    if (!Number.isSafeInteger(object.size) || object.size < 0) refuse(`has an LFS object entry ${described}`);
    if (seen.has(object.oid)) refuse(`lists the LFS object ${object.oid} twice`);
    seen.add(object.oid);
    checkBackupFile(directory, lfsBackupPath(directory, object.oid), `the LFS object ${object.oid}`);
  }
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
  if ((manifest.format as number) === 1) {
    throw new UsageError(`${path} has format 1: its repositories are copies of their directories, configuration and hooks included, which a restore cannot trust (a repository's configuration can run commands). Make a new backup with this Kiln (npx kiln admin backup) of the instance it came from`);
  }
  if (manifest.format !== FORMAT) throw new UsageError(`${path} has format ${String(manifest.format)}, which this Kiln does not know`);
  return manifest;
}
