// docs/operations/backup.md and several-nodes.md followed on one machine, their blocks run as
// written (paths and database URLs made this machine's): back up a running instance, restore it into
// a new data dir (and database) and serve it, on SQLite and on PostgreSQL, with Kiln's pg_dump and
// with the operator's own (--skip-database); a second node refused with other secrets, then started
// with a copy. Each dialect's part runs in its own project.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecrets } from '../../src/platform/secrets.js';
import { testDialect } from '../helpers/database.js';
import { apiCall, freePort, startKilnProcess, type KilnProcess } from '../clients/helpers/server.js';
import { runKiln } from '../platform/process-helpers.js';
import { createScratchDatabase, type ScratchDatabase } from './helpers.js';
import { guideBlock, localise, runShell, shellEnv, startShell, waitUntilReady } from './docs-shell.js';

const BACKUP_LINE = 'npx kiln admin backup /backups/kiln-$(date +%F)';
const RESTORE_LINE = 'npx kiln admin restore /backups/kiln-2026-11-24\n';
const OWN_DUMP_LINE = 'npx kiln admin backup --skip-database "$BACKUP/files"';
const OWN_RESTORE_LINE = 'npx kiln admin restore /backups/kiln-2026-11-24/files';
const modeOf = (path: string) => statSync(path).mode & 0o777;

/** What the instance holds before the backup: a project with an issue and a commit. */
async function seed(kiln: KilnProcess): Promise<{ projectId: number }> {
  const project = await apiCall(kiln, 'POST', '/projects', { name: 'kept' });
  await apiCall(kiln, 'POST', `/projects/${project.id}/issues`, { title: 'Kept through the restore' });
  await apiCall(kiln, 'POST', `/projects/${project.id}/repository/files/NOTES.md`, { branch: 'main', content: 'kept\n', commit_message: 'Add notes' });
  return { projectId: project.id };
}

/** The restored instance serves what the source held, as the source's root (same database, same token). */
async function expectRestored(url: string, rootToken: string, projectId: number): Promise<void> {
  const get = async (path: string) => {
    const response = await fetch(`${url}/api/v4${path}`, { headers: { 'private-token': rootToken } });
    expect(response.status, path).toBe(200);
    return response;
  };
  expect(await (await get(`/projects/${projectId}/issues`)).json()).toMatchObject([{ title: 'Kept through the restore' }]);
  expect(await (await get(`/projects/${projectId}/repository/files/NOTES.md/raw?ref=main`)).text()).toBe('kept\n');
}

/** The one backup the block made under `root` (its name has today's date). */
function onlyBackup(root: string): string {
  const made = readdirSync(root);
  expect(made).toEqual([expect.stringMatching(/^kiln-\d{4}-\d\d-\d\d$/)]);
  return join(root, made[0]);
}

/** Runs a restore block (ending in `npx kiln serve`) and checks the instance it serves. */
async function restoreAndServe(block: string, env: Record<string, string>, source: KilnProcess, projectId: number, dataDir: string): Promise<void> {
  const port = await freePort();
  const shell = startShell(block, shellEnv({ KILN_HOST: '127.0.0.1', KILN_PORT: String(port), ...env }));
  try {
    await waitUntilReady(shell, `http://127.0.0.1:${port}`, 90_000);
    expect(shell.output()).toMatch(/^restored .* from /m);
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(join(dataDir, 'secrets.json'))).toBe(0o600);
    await expectRestored(`http://127.0.0.1:${port}`, source.rootToken, projectId);
  } finally {
    await shell.stop();
  }
}

describe('docs/operations/backup.md', () => {
  let work: string;
  const scratch: ScratchDatabase[] = [];
  /** A new database with Kiln in `public`, as an operator's: a plain URL, no search path. */
  const newDatabase = async (): Promise<ScratchDatabase> => {
    const database = await createScratchDatabase('public');
    scratch.push(database);
    return { url: database.url.split('?')[0], drop: database.drop };
  };
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'kiln-guide-backup-'));
  });
  afterAll(async () => {
    for (const database of scratch) await database.drop();
    rmSync(work, { recursive: true, force: true });
  });

  describe.skipIf(testDialect() !== 'sqlite')('on SQLite', () => {
    it('backs up the running instance, restores it into a new data dir (0700) and serves it', { timeout: 240_000 }, async () => {
      const source = await startKilnProcess();
      try {
        const { projectId } = await seed(source);
        const backups = join(work, 'backups');
        const made = await runShell(localise(guideBlock('backup.md', BACKUP_LINE), { '/backups': backups }), shellEnv({ KILN_DATA_DIR: source.dataDir }));
        expect({ code: made.code, stderr: made.stderr }).toEqual({ code: 0, stderr: '' });
        const backup = onlyBackup(backups);
        expect(modeOf(backup)).toBe(0o700);
        await source.stop();

        const restored = join(work, 'restored');
        const block = localise(guideBlock('backup.md', RESTORE_LINE), { '/backups/kiln-2026-11-24': backup, '/var/lib/kiln': restored });
        await restoreAndServe(block, {}, source, projectId, restored);
      } finally {
        await source.stop();
      }
    });

    it('restore makes an empty data dir that already exists private (0700)', { timeout: 120_000 }, async () => {
      const source = await startKilnProcess();
      const backup = join(work, 'second-backup');
      try {
        expect((await runKiln(['admin', 'backup', backup], { KILN_DATA_DIR: source.dataDir })).code).toBe(0);
      } finally {
        await source.stop();
      }
      const existing = join(work, 'made-by-the-operator');
      mkdirSync(existing, { mode: 0o755 });
      chmodSync(existing, 0o755);
      const restored = await runKiln(['admin', 'restore', backup], { KILN_DATA_DIR: existing });
      expect({ code: restored.code, stderr: restored.stderr }).toEqual({ code: 0, stderr: '' });
      expect(modeOf(existing)).toBe(0o700);
    });
  });

  describe.skipIf(testDialect() !== 'postgres')('on PostgreSQL', () => {
    let source: KilnProcess;
    let sourceDatabase: ScratchDatabase;
    let projectId: number;
    beforeAll(async () => {
      sourceDatabase = await newDatabase();
      source = await startKilnProcess({ env: { KILN_DATABASE_URL: sourceDatabase.url } });
      ({ projectId } = await seed(source));
    }, 90_000);
    afterAll(() => source?.stop());
    const sourceEnv = () => shellEnv({ KILN_DATA_DIR: source.dataDir, KILN_DATABASE_URL: sourceDatabase.url });

    it('backs up with pg_dump, restores into an empty database and a new data dir (0700), and serves it', { timeout: 240_000 }, async () => {
      const backups = join(work, 'pg-backups');
      const made = await runShell(localise(guideBlock('backup.md', BACKUP_LINE), { '/backups': backups }), sourceEnv());
      expect({ code: made.code, stderr: made.stderr }).toEqual({ code: 0, stderr: '' });
      const backup = onlyBackup(backups);
      expect(readdirSync(backup)).toContain('database.pgdump');

      const target = await newDatabase();
      const restored = join(work, 'pg-restored');
      const block = localise(guideBlock('backup.md', RESTORE_LINE), { '/backups/kiln-2026-11-24': backup, '/var/lib/kiln': restored });
      await restoreAndServe(block, { KILN_DATABASE_URL: target.url }, source, projectId, restored);
    });

    it('--skip-database: the pg_dump recipe into a directory that does not exist yet, then its pg_restore and restore', { timeout: 240_000 }, async () => {
      const backups = join(work, 'own-backups');
      const made = await runShell(localise(guideBlock('backup.md', OWN_DUMP_LINE), { '/backups': backups }), sourceEnv());
      expect({ code: made.code, stderr: made.stderr }).toEqual({ code: 0, stderr: '' });
      const backup = onlyBackup(backups);
      expect(modeOf(backup)).toBe(0o700);
      expect(readdirSync(backup).sort()).toEqual(['database.pgdump', 'files']);
      expect(readdirSync(join(backup, 'files')).sort()).toEqual(['backup.json', 'repositories', 'secrets.json']);

      const target = await newDatabase();
      const restored = join(work, 'own-restored');
      const block = localise(guideBlock('backup.md', OWN_RESTORE_LINE), {
        '/backups/kiln-2026-11-24': backup,
        '/var/lib/kiln': restored,
        'postgres://kiln:PASSWORD@db.internal:5432/kiln': target.url,
      });
      await restoreAndServe(block, {}, source, projectId, restored);
    });

    it('several-nodes.md: a second node with other secrets is refused with the line shown; with a copy of the first node\'s, it serves the same instance', { timeout: 120_000 }, async () => {
      const shown = guideBlock('several-nodes.md', 'differs from the secrets this database was initialised with').trim();
      const second = join(work, 'node-2');
      mkdirSync(second, { mode: 0o700 });
      createSecrets(second);
      const refused = await runShell('npx kiln serve', shellEnv({ KILN_DATA_DIR: second, KILN_DATABASE_URL: sourceDatabase.url, KILN_PORT: String(await freePort()) }));
      const expected = localise(shown, { '/var/lib/kiln': second }).replace(/\b[0-9a-f]{12}\b/g, '<fingerprint>');
      expect({ code: refused.code, output: refused.output.trim().replace(/\b[0-9a-f]{12}\b/g, '<fingerprint>') }).toEqual({ code: 2, output: expected });

      // "Copy <KILN_DATA_DIR>/secrets.json from the first node into every other node's data dir (then chmod 600)".
      copyFileSync(join(source.dataDir, 'secrets.json'), join(second, 'secrets.json'));
      chmodSync(join(second, 'secrets.json'), 0o600);
      // "the same KILN_STORAGES": the first node's shard (its default, in its data dir).
      const storages = JSON.stringify({ default: { path: join(source.dataDir, 'repositories', 'default') } });
      const node = await startKilnProcess({ dataDir: second, env: { KILN_DATABASE_URL: sourceDatabase.url, KILN_STORAGES: storages }, rootToken: source.rootToken });
      try {
        await expectRestored(node.url, source.rootToken, projectId);
      } finally {
        await node.stop();
      }
    });
  });
});
