// `kiln admin backup` of a running instance under a write burst (API writes and git pushes), then
// `kiln admin restore` into a new data dir (and, on PostgreSQL, a new database): every write
// acknowledged before the backup began is there, the repository clones with every commit pushed
// before it, OAuth tokens and signing keys still hold, and LFS objects and uploads are there.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { testDialect } from '../helpers/database.js';
import { gitCommands } from '../helpers/git.js';
import { apiCall, startKilnProcess, type KilnProcess } from '../clients/helpers/server.js';
import { childDatabaseEnv, runKiln } from '../platform/process-helpers.js';
import { backupWorkspace, createScratchDatabase } from './helpers.js';
import { bundlePath, readManifest } from '../../src/operations/backup-manifest.js';

const ROOT_PASSWORD = 'root-password-for-clients';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('kiln admin backup and kiln admin restore', () => {
  const space = backupWorkspace('kiln-backup-');
  const git = gitCommands(() => space.work);

  describe('of an instance taking writes', () => {
    it('restores every write acknowledged before the backup began, a cloneable repository and valid OAuth tokens', { timeout: 240_000 }, async () => {
      const env = childDatabaseEnv(space.testDb);
      const source: KilnProcess = await startKilnProcess({ dataDir: space.testDb.dataDir, env });
      const backupDir = join(space.work, 'backup');
      let stopWriting = false;
      const acknowledged: Array<{ title: string; at: number }> = [];
      const pushed: Array<{ sha: string; at: number }> = [];
      let restoredNode: KilnProcess | null = null;
      try {
        const project = await apiCall(source, 'POST', '/projects', { name: 'backed-up', initialize_with_readme: false });
        const remote = `http://root:${source.rootToken}@127.0.0.1:${source.port}/root/backed-up.git`;
        await git.ok(['init', '-q', 'checkout']);
        const checkout = join(space.work, 'checkout');
        const commitAndPush = async (message: string) => {
          writeFileSync(join(checkout, 'file.txt'), `${message}\n`);
          await git.ok(['add', 'file.txt'], checkout);
          await git.ok(['commit', '-q', '-m', message], checkout);
          const sha = (await git.ok(['rev-parse', 'HEAD'], checkout)).trim();
          await git.ok(['push', '-q', remote, 'HEAD:main'], checkout);
          pushed.push({ sha, at: Date.now() });
        };
        await commitAndPush('first');
        // An LFS object, uploaded as git-lfs does (batch, then the basic transfer's PUT).
        const lfsContent = Buffer.from('LFS content kept by the backup\n');
        const lfsOid = createHash('sha256').update(lfsContent).digest('hex');
        const lfsAuth = { authorization: `Basic ${Buffer.from(`root:${source.rootToken}`).toString('base64')}` };
        const lfsBatch = await fetch(`${source.url}/root/backed-up.git/info/lfs/objects/batch`, {
          method: 'POST',
          headers: { ...lfsAuth, 'content-type': 'application/vnd.git-lfs+json' },
          body: JSON.stringify({ operation: 'upload', objects: [{ oid: lfsOid, size: lfsContent.length }] }),
        });
        const upload = (await lfsBatch.json()).objects[0].actions.upload;
        expect((await fetch(`${source.url}${new URL(upload.href).pathname}`, { method: 'PUT', headers: upload.header, body: lfsContent })).status).toBe(200);
        // A Markdown upload, as a comment's attachment is sent.
        const attachment = new FormData();
        attachment.append('file', new Blob([Buffer.from('an attachment kept by the backup')]), 'notes.txt');
        const attached = await fetch(`${source.url}/api/v4/projects/${project.id}/uploads`, { method: 'POST', headers: { 'private-token': source.rootToken }, body: attachment });
        expect(attached.status).toBe(201);
        const uploaded = await attached.json();

        const application = await apiCall(source, 'POST', '/applications', { name: 'Backed-up app', redirect_uri: 'http://127.0.0.1:9999/callback', scopes: 'api openid' });
        const grant = await fetch(`${source.url}/oauth/token`, {
          method: 'POST',
          body: new URLSearchParams({ grant_type: 'password', username: 'root', password: ROOT_PASSWORD, client_id: application.application_id, client_secret: application.secret, scope: 'api openid' }),
        });
        const tokens = await grant.json();
        expect({ status: grant.status, tokens }).toMatchObject({ status: 200, tokens: { token_type: 'bearer' } });
        const keysBefore = await (await fetch(`${source.url}/oauth/discovery/keys`)).json();

        // The burst: four API writers and one pusher, until the backup has finished.
        const writers = [0, 1, 2, 3].map(async (writer) => {
          for (let i = 0; !stopWriting; i += 1) {
            const title = `burst ${writer}-${i}`;
            await apiCall(source, 'POST', `/projects/${project.id}/issues`, { title });
            acknowledged.push({ title, at: Date.now() });
          }
        });
        const pusher = (async () => {
          for (let i = 0; !stopWriting; i += 1) await commitAndPush(`during ${i}`);
        })();
        // Writes under way before the backup starts: a count, not a time, so a loaded machine waits longer.
        for (const deadline = Date.now() + 30_000; acknowledged.length <= 10 && Date.now() < deadline; ) await sleep(50);

        const startedAt = Date.now();
        // Counted, not compared by time: a write acknowledged in the millisecond the backup starts is before it too.
        const acknowledgedBefore = acknowledged.length;
        const backup = await runKiln(['admin', 'backup', backupDir], { KILN_DATA_DIR: space.testDb.dataDir, ...env });
        const finishedAt = Date.now();
        await sleep(300);
        stopWriting = true;
        await Promise.all([...writers, pusher]);
        expect({ code: backup.code, stderr: backup.stderr }).toEqual({ code: 0, stderr: '' });
        expect(backup.stdout).toContain(`backup complete in ${backupDir}`);
        expect(statSync(backupDir).mode & 0o777).toBe(0o700);
        expect(statSync(join(backupDir, 'secrets.json')).mode & 0o777).toBe(0o600);

        const before = acknowledged.slice(0, acknowledgedBefore).map((write) => write.title);
        expect(before.length).toBeGreaterThan(10);
        // Writes went on while the backup ran: it did not stop the instance.
        expect(acknowledged.some((write) => write.at > startedAt && write.at < finishedAt)).toBe(true);
        const lastPushBefore = pushed.filter((push) => push.at < startedAt).at(-1)!;
        await source.stop();

        // Restore into a new data dir (and database), as on a new machine.
        const restoredDir = join(space.work, 'restored');
        const restoreEnv = await space.restoreEnv();
        const restored = await runKiln(['admin', 'restore', backupDir], { KILN_DATA_DIR: restoredDir, ...restoreEnv });
        expect({ code: restored.code, stderr: restored.stderr }).toEqual({ code: 0, stderr: '' });
        expect(restored.stdout).toMatch(/^restored .*secrets\.json and 1 repository from /m);
        expect(statSync(restoredDir).mode & 0o777).toBe(0o700);

        restoredNode = await startKilnProcess({ dataDir: restoredDir, env: restoreEnv, rootToken: source.rootToken });
        const titles = new Set<string>();
        for (let page = 1; ; page += 1) {
          const issues = await apiCall(restoredNode, 'GET', `/projects/${project.id}/issues?per_page=100&page=${page}`);
          for (const issue of issues) titles.add(issue.title);
          if (issues.length < 100) break;
        }
        expect(before.filter((title) => !titles.has(title))).toEqual([]);

        const clone = join(space.work, 'clone');
        await git.ok(['clone', '-q', `http://root:${source.rootToken}@127.0.0.1:${restoredNode.port}/root/backed-up.git`, clone]);
        await git.ok(['fsck', '--no-progress'], clone);
        // Seen failing once in CI (the commit not in the clone) and not reproduced: a failure shows what
        // the restored repository holds and what the backup said, beside the push it lacks.
        const ancestor = await git.run(['merge-base', '--is-ancestor', lastPushBefore.sha, 'origin/main'], clone);
        if (ancestor.code !== 0) {
          // Which step lost it: the manifest (`empty` when no refs were read), the bundle's own refs, the restored repository's.
          const [entry] = readManifest(backupDir).repositories;
          const bundleHeads = entry.empty ? null : (await git.run(['bundle', 'list-heads', bundlePath(backupDir, entry)])).stdout;
          const restoredRefs = (await git.run(['ls-remote', 'origin'], clone)).stdout;
          const context = { lacking: lastPushBefore, pushedAfterIt: pushed.filter((push) => push.at >= lastPushBefore.at), startedAt, git: ancestor.stderr, backup: backup.stdout, entry, bundleHeads, restoredRefs };
          expect.unreachable(`the last push before the backup is not in the restored repository: ${JSON.stringify(context, null, 2)}`);
        }

        const info = await fetch(`${restoredNode.url}/oauth/token/info`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
        expect(info.status).toBe(200);
        const user = await fetch(`${restoredNode.url}/api/v4/user`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
        expect(await user.json()).toMatchObject({ username: 'root' });
        expect(await (await fetch(`${restoredNode.url}/oauth/discovery/keys`)).json()).toEqual(keysBefore);
        expect(restored.stdout).toContain('restored 1 LFS object, each checked against its oid');
        const lfsDownload = await fetch(`${restoredNode.url}/root/backed-up.git/gitlab-lfs/objects/${lfsOid}`, { headers: lfsAuth });
        expect(Buffer.from(await lfsDownload.arrayBuffer()).equals(lfsContent)).toBe(true);
        expect(restored.stdout).toContain('restored 1 upload');
        const attachmentDownload = await fetch(`${restoredNode.url}/api/v4/projects/${project.id}/uploads/${uploaded.id}`, { headers: { 'private-token': source.rootToken } });
        expect(await attachmentDownload.text()).toBe('an attachment kept by the backup');
      } finally {
        stopWriting = true;
        await restoredNode?.stop();
        await source.stop();
      }
    });
  });

  describe.skipIf(testDialect() !== 'postgres')('on PostgreSQL with --skip-database (the operator dumps the database)', () => {
    it('copies secrets.json and the repositories, says the database is not in the backup, and restores only onto this instance\'s database', { timeout: 60_000 }, async () => {
      const env = childDatabaseEnv(space.testDb);
      const target = join(space.work, 'files-only');
      const backup = await runKiln(['admin', 'backup', '--skip-database', target], { KILN_DATA_DIR: space.testDb.dataDir, ...env });
      expect({ code: backup.code, stderr: backup.stderr }).toEqual({ code: 0, stderr: '' });
      expect(backup.stdout).toContain('the database is NOT in this backup');
      expect(readdirSync(target).sort()).toEqual(['backup.json', 'lfs-objects', 'repositories', 'secrets.json', 'uploads']);

      const empty = await createScratchDatabase(space.testDb.schema!);
      try {
        const refused = await runKiln(['admin', 'restore', target], { KILN_DATA_DIR: join(space.work, 'files-only-a'), KILN_DATABASE_URL: empty.url });
        expect(refused.code).toBe(2);
        expect(refused.stderr).toContain('this backup holds no database (made with --skip-database): restore your PostgreSQL dump into');
        expect(existsSync(join(space.work, 'files-only-a'))).toBe(false);
      } finally {
        await empty.drop();
      }
      // Onto the database it came from (as if the operator had restored their dump there).
      const restored = await runKiln(['admin', 'restore', target], { KILN_DATA_DIR: join(space.work, 'files-only-b'), ...env, KILN_STORAGES: JSON.stringify({ default: { path: join(space.work, 'files-only-b-shard') } }) });
      expect({ code: restored.code, stderr: restored.stderr }).toEqual({ code: 0, stderr: '' });
      expect(restored.stdout).toContain('restored nothing of the database (restored by you), secrets.json and 1 repository');
    });

  });

  describe('refusals, before anything is written', () => {
    it('--skip-database on SQLite', async () => {
      const result = await runKiln(['admin', 'backup', '--skip-database', join(space.work, 'never')], { KILN_DATA_DIR: space.testDb.dataDir });
      expect(result).toMatchObject({ code: 2, stderr: 'kiln: admin backup: --skip-database is for PostgreSQL (KILN_DATABASE_URL); a SQLite database is always in the backup\n' });
      expect(existsSync(join(space.work, 'never'))).toBe(false);
    });

    it('backup into a directory that is not empty', async () => {
      const target = join(space.work, 'not-empty');
      mkdirSync(target, { recursive: true });
      writeFileSync(join(target, 'keep.txt'), 'mine');
      const result = await runKiln(['admin', 'backup', target], { KILN_DATA_DIR: space.testDb.dataDir, ...childDatabaseEnv(space.testDb) });
      expect(result).toMatchObject({ code: 2, stderr: `kiln: admin backup: ${target} is not empty: back up into a new directory\n` });
      expect(readdirSync(target)).toEqual(['keep.txt']);
    });

    it('backup of a data dir that is not Kiln\'s', async () => {
      const dataDir = join(space.work, 'nothing-here');
      const result = await runKiln(['admin', 'backup', join(space.work, 'b2')], { KILN_DATA_DIR: dataDir, ...childDatabaseEnv(space.testDb) });
      expect(result).toMatchObject({ code: 2, stderr: `kiln: configuration error: KILN_DATA_DIR ${dataDir} has no secrets.json: is it Kiln's data dir?\n` });
      expect(existsSync(dataDir)).toBe(false);
      expect(existsSync(join(space.work, 'b2'))).toBe(false);
    });

    it('restore of a directory that is no backup, or into a data dir that is not empty', async () => {
      const notBackup = join(space.work, 'not-a-backup');
      mkdirSync(notBackup, { recursive: true });
      const noManifest = await runKiln(['admin', 'restore', notBackup], { KILN_DATA_DIR: join(space.work, 'fresh') });
      expect(noManifest).toMatchObject({ code: 2, stderr: `kiln: admin restore: ${notBackup} is not a Kiln backup (it has no backup.json; an interrupted backup has none)\n` });
      expect(existsSync(join(space.work, 'fresh'))).toBe(false);
      const sqlite = testDialect() === 'sqlite';
      if (sqlite) writeFileSync(join(notBackup, 'kiln.sqlite3'), '');
      writeFileSync(join(notBackup, 'secrets.json'), '{}');
      writeFileSync(join(notBackup, 'backup.json'), JSON.stringify({ format: 2, database: testDialect(), database_file: sqlite ? 'kiln.sqlite3' : null, migrations: [], secrets_fingerprint: 'x', repositories: [] }));
      const notEmpty = await runKiln(['admin', 'restore', notBackup], { KILN_DATA_DIR: space.testDb.dataDir, ...childDatabaseEnv(space.testDb) });
      expect(notEmpty).toMatchObject({ code: 2, stderr: `kiln: configuration error: KILN_DATA_DIR ${space.testDb.dataDir} is not empty: restore into a new data dir\n` });
    });
  });
});
