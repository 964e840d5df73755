// `kiln admin restore` does not trust the backup (issue 33): repositories come back from bundles into
// repositories Kiln makes itself (no configuration or hooks of the backup's), every path of the
// manifest is checked, and anything unexpected refuses the restore (exit 2) before anything is
// written. And the archives Kiln serves use Kiln's compressors whatever a repository's configuration says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { twoShards } from '../helpers/git.js';
import { runKiln } from '../platform/process-helpers.js';
import { commit, create } from '../api/repository-api-driver.js';
import { restore } from '../../src/operations/restore.js';
import { bundleRepository } from '../../src/operations/repository-bundles.js';
import { MANIFEST, SQLITE_FILE, type BackupManifest } from '../../src/operations/backup-manifest.js';
import { SECRETS_FILE } from '../../src/platform/secrets.js';
import type { Config } from '../../src/config.js';

let work: string;
let kiln: TestKiln;
let owner: TestUser;
let project: any;
let projectRepository: string;
let counter = 0;

const DISK_PATH = `@hashed/ab/cd/${'ab'.repeat(32)}.git`;
const gitIn = (repository: string, args: string[]) => execFileSync('git', ['--git-dir', repository, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', HOME: '/nonexistent' } });
/** A marker a hostile command would create. */
const marker = () => join(work, 'PWNED');

/** The repository configuration of the probe: a command for tar.gz archives, and a hook. */
function plantHostileConfiguration(repository: string): void {
  gitIn(repository, ['config', 'tar.tar.gz.command', `touch ${marker()}; gzip -c`]);
  gitIn(repository, ['config', 'core.hooksPath', join(work, 'evil-hooks')]);
  mkdirSync(join(repository, 'hooks'), { recursive: true });
  writeFileSync(join(repository, 'hooks', 'post-update'), `#!/bin/sh\ntouch ${marker()}\n`, { mode: 0o755 });
}

/** A backup directory written by hand (a dummy database file: restore copies it without opening it). */
function backupDirectory(repositories: unknown[], overrides: Partial<BackupManifest> & Record<string, unknown> = {}): string {
  const directory = join(work, `backup-${(counter += 1)}`);
  mkdirSync(join(directory, 'repositories', 'default'), { recursive: true });
  writeFileSync(join(directory, SQLITE_FILE), 'not opened by restore');
  writeFileSync(join(directory, SECRETS_FILE), '{}');
  const manifest = { format: 2, kiln_version: 'test', created_at: new Date().toISOString(), database: 'sqlite', database_file: SQLITE_FILE, migrations: [], secrets_fingerprint: 'x', repositories, ...overrides };
  writeFileSync(join(directory, MANIFEST), JSON.stringify(manifest));
  return directory;
}

/** A configuration restoring into a new data dir and new shards. */
function freshTarget(): Config {
  const root = join(work, `target-${(counter += 1)}`);
  return { ...kiln.config, databaseUrl: null, dataDir: join(root, 'data'), storages: twoShards(root), lfsPath: join(root, 'data', 'shared', 'lfs-objects'), uploadsPath: join(root, 'data', 'shared', 'uploads') };
}

const lines: string[] = [];
const say = (line: string) => lines.push(line);

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kiln-restore-'));
  kiln = await testKiln({ storages: twoShards(work) });
  owner = await kiln.createUser('restore-owner');
  project = await kiln.createProject(owner, 'archived', { visibility: 'public' });
  await commit(kiln, owner.token, project.id, { branch: 'main', actions: [create('README.md', 'hello\n')] });
  const row = await kiln.deps.db.selectFrom('repositories').selectAll().where('container_type', '=', 'project').where('container_id', '=', project.id).executeTakeFirstOrThrow();
  projectRepository = join(work, 'shards', row.shard, row.disk_path);
});
afterAll(async () => {
  await kiln.close();
  rmSync(work, { recursive: true, force: true });
});

describe('restore of a repository from its bundle', () => {
  it('brings back the refs, objects and HEAD, and none of the configuration or hooks the repository had', async () => {
    const source = join(work, 'hostile.git');
    execFileSync('git', ['clone', '-q', '--bare', projectRepository, source]);
    gitIn(source, ['branch', 'release/1', 'main']);
    gitIn(source, ['symbolic-ref', 'HEAD', 'refs/heads/release/1']);
    plantHostileConfiguration(source);
    const directory = backupDirectory([]);
    const bundled = await bundleRepository(source, join(directory, 'repositories', 'default', `${DISK_PATH}.bundle`));
    expect(bundled).toEqual({ head: 'refs/heads/release/1', empty: false });
    writeFileSync(join(directory, MANIFEST), JSON.stringify({ format: 2, kiln_version: 'test', created_at: '', database: 'sqlite', database_file: SQLITE_FILE, migrations: [], secrets_fingerprint: 'x', repositories: [{ shard: 'default', disk_path: DISK_PATH, ...bundled }] }));

    const target = freshTarget();
    await restore(target, directory, say);
    const restored = join(target.storages[0].path, DISK_PATH);
    expect(gitIn(restored, ['for-each-ref', '--format=%(refname) %(objectname)'])).toBe(gitIn(source, ['for-each-ref', '--format=%(refname) %(objectname)']));
    expect(gitIn(restored, ['symbolic-ref', 'HEAD']).trim()).toBe('refs/heads/release/1');
    expect(() => gitIn(restored, ['config', '--get', 'tar.tar.gz.command'])).toThrow();
    expect(() => gitIn(restored, ['config', '--get', 'core.hooksPath'])).toThrow();
    expect(existsSync(join(restored, 'hooks', 'post-update'))).toBe(false);
    gitIn(restored, ['archive', '--format=tar.gz', '-o', join(work, 'out.tar.gz'), 'HEAD']);
    expect(existsSync(marker())).toBe(false);
  });

  it('restores a repository without refs as a new empty one', async () => {
    const directory = backupDirectory([{ shard: 'default', disk_path: DISK_PATH, head: 'refs/heads/main', empty: true }]);
    const target = freshTarget();
    await restore(target, directory, say);
    expect(gitIn(join(target.storages[0].path, DISK_PATH), ['for-each-ref'])).toBe('');
  });
});

describe('restore of LFS objects', () => {
  const content = Buffer.from('an LFS object\n');
  const oid = createHash('sha256').update(content).digest('hex');
  const lfsFile = (directory: string, name: string) => join(directory, 'lfs-objects', name.slice(0, 2), name.slice(2, 4), name.slice(4));
  function withObject(body: Buffer, size = body.length): string {
    const directory = backupDirectory([], { lfs_objects: [{ oid, size }] });
    mkdirSync(join(lfsFile(directory, oid), '..'), { recursive: true });
    writeFileSync(lfsFile(directory, oid), body);
    return directory;
  }

  it('stores each object under KILN_LFS_PATH, checked against its oid', async () => {
    const target = freshTarget();
    await restore(target, withObject(content), say);
    expect(readFileSync(lfsFile(join(target.dataDir, 'shared'), oid)).equals(content)).toBe(true);
  });

  it('leaves out an object whose file is not its content, and says so', async () => {
    const target = freshTarget();
    await expect(restore(target, withObject(Buffer.from('something else\n'), content.length), say)).rejects.toThrow(`1 LFS object does not match its oid in the backup and was left out: ${oid}`);
    expect(existsSync(lfsFile(join(target.dataDir, 'shared'), oid))).toBe(false);
  });
});

describe('restore of uploads', () => {
  const secret = 'cd'.repeat(16);
  function withUpload(body: Buffer, size = body.length): string {
    const directory = backupDirectory([], { uploads: [{ project_id: 7, secret, size }] });
    mkdirSync(join(directory, 'uploads', '7'), { recursive: true });
    writeFileSync(join(directory, 'uploads', '7', secret), body);
    return directory;
  }

  it('copies each upload under KILN_UPLOADS_PATH/<project id>/<secret>', async () => {
    const target = freshTarget();
    await restore(target, withUpload(Buffer.from('a picture')), say);
    expect(readFileSync(join(target.uploadsPath, '7', secret), 'utf8')).toBe('a picture');
    expect(lines).toContain('restored 1 upload');
  });

  it('leaves out an upload whose file does not have its size, and says so', async () => {
    const target = freshTarget();
    await expect(restore(target, withUpload(Buffer.from('short'), 99), say)).rejects.toThrow(`1 upload does not have the size the backup gives and was left out: 7/${secret}`);
    expect(existsSync(join(target.uploadsPath, '7', secret))).toBe(false);
  });
});

describe('restore refuses a backup with anything unexpected, before writing anything', () => {
  const refusals: Array<[string, () => string, RegExp]> = [
    ['a ../ path', () => backupDirectory([{ shard: 'default', disk_path: '../../../outside.git', head: null, empty: true }]), /names the repository path "\.\.\/\.\.\/\.\.\/outside\.git", which is not one of Kiln's/],
    ['an absolute path', () => backupDirectory([{ shard: 'default', disk_path: '/tmp/x.git', head: null, empty: true }]), /which is not one of Kiln's/],
    ['a shard that is not configured', () => backupDirectory([{ shard: 'elsewhere', disk_path: DISK_PATH, head: null, empty: true }]), /names shard "elsewhere", which KILN_STORAGES does not configure/],
    ['an entry with other keys', () => backupDirectory([{ shard: 'default', disk_path: DISK_PATH, head: null, empty: true, config: '[core]' }]), /has a repository entry/],
    ['a HEAD that is not a branch', () => backupDirectory([{ shard: 'default', disk_path: DISK_PATH, head: '../../config', empty: true }]), /which is not a branch/],
    ['the same repository twice', () => backupDirectory([{ shard: 'default', disk_path: DISK_PATH, head: null, empty: true }, { shard: 'default', disk_path: DISK_PATH, head: null, empty: true }]), /lists default\/@hashed\/.* twice/],
    ['a bundle it does not hold', () => backupDirectory([{ shard: 'default', disk_path: DISK_PATH, head: null, empty: false }]), /which the backup does not hold/],
    ['an LFS object named by a path', () => backupDirectory([], { lfs_objects: [{ oid: '../../../etc/passwd', size: 1 }] }), /names the LFS object "\.\.\/\.\.\/\.\.\/etc\/passwd", which is not a SHA-256 oid/],
    ['an LFS object the backup does not hold', () => backupDirectory([], { lfs_objects: [{ oid: 'ab'.repeat(32), size: 1 }] }), /names the LFS object (ab){32}, which the backup does not hold/],
    ['an upload named by a path', () => backupDirectory([], { uploads: [{ project_id: 1, secret: '../../../etc/passwd', size: 1 }] }), /names the upload "\.\.\/\.\.\/\.\.\/etc\/passwd", which is not an upload secret/],
    ['an upload of project 0', () => backupDirectory([], { uploads: [{ project_id: 0, secret: 'ab'.repeat(16), size: 1 }] }), /has an upload entry/],
    ['an upload the backup does not hold', () => backupDirectory([], { uploads: [{ project_id: 1, secret: 'ab'.repeat(16), size: 1 }] }), /names the upload 1\/(ab){16}, which the backup does not hold/],
    ['a database file elsewhere', () => backupDirectory([], { database_file: '../../etc/passwd' }), /names the database file "\.\.\/\.\.\/etc\/passwd"/],
    ['a bundle that is a symlink out of the backup', () => {
      const directory = backupDirectory([{ shard: 'default', disk_path: DISK_PATH, head: null, empty: false }]);
      mkdirSync(join(directory, 'repositories', 'default', '@hashed', 'ab', 'cd'), { recursive: true });
      writeFileSync(join(work, 'outside.bundle'), 'x');
      symlinkSync(join(work, 'outside.bundle'), join(directory, 'repositories', 'default', `${DISK_PATH}.bundle`));
      return directory;
    }, /which is not a regular file inside the backup/],
    ['a repository directory that is a symlink (format 1)', () => backupDirectory([{ shard: 'default', disk_path: DISK_PATH }], { format: 1 as never }), /has format 1: its repositories are copies of their directories, configuration and hooks included, which a restore cannot trust/],
  ];

  for (const [what, make, message] of refusals) {
    it(`refuses ${what}`, async () => {
      const target = freshTarget();
      await expect(restore(target, make(), say)).rejects.toThrow(message);
      expect(existsSync(target.dataDir) ? readdirSync(target.dataDir) : []).toEqual([]);
      expect(existsSync(target.storages[0].path)).toBe(false);
    });
  }

  it('exits with code 2 and says why on the command line', async () => {
    const directory = backupDirectory([{ shard: 'default', disk_path: '../escape.git', head: null, empty: true }]);
    const root = join(work, 'cli-target');
    const result = await runKiln(['admin', 'restore', directory], { KILN_DATA_DIR: join(root, 'data'), KILN_STORAGES: JSON.stringify({ default: { path: join(root, 'shard') } }) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('backup.json names the repository path "../escape.git", which is not one of Kiln\'s: refusing to restore this backup');
    expect(existsSync(join(root, 'shard'))).toBe(false);
  });
});

describe('GET /projects/:id/repository/archive.tar.gz', () => {
  describe('as an anonymous caller, of a public project whose repository configures a tar.gz command', () => {
    it('archives with git\'s own gzip and never runs the configured command', async () => {
      plantHostileConfiguration(projectRepository);
      for (const format of ['tar.gz', 'tgz', 'tar.bz2']) {
        const response = await kiln.request('GET', `/api/v4/projects/${project.id}/repository/archive.${format}`);
        expect(response.statusCode).toBe(200);
        expect(response.rawPayload.length).toBeGreaterThan(0);
      }
      expect(existsSync(marker())).toBe(false);
    });
  });
});
