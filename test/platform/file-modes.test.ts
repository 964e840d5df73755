// Data files are private to Kiln's user (issue 13, item 6): the data directory 0700; the SQLite
// database, its -wal and -shm, secrets.json and initial_root_password 0600; places made before this
// rule are tightened at start.
import { afterEach, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { startKiln } from '../../src/bootstrap.js';
import { BASE_URL } from '../helpers/kiln.js';

const modeOf = (path: string) => statSync(path).mode & 0o777;
let parent: string;
let starts = 0;

afterEach(() => rmSync(parent, { recursive: true, force: true }));

async function startAndStop(dataDir: string) {
  // SQLite in the data directory, whatever database the other suites use.
  const config = { ...loadConfig({ KILN_DATA_DIR: dataDir, KILN_BASE_URL: BASE_URL, KILN_LOG_LEVEL: 'silent' }), databaseUrl: null, initialRootPassword: null };
  const kiln = await startKiln(config, { log: pino({ level: 'silent' }) });
  await kiln.deps.db.insertInto('rate_limits').values({ key: `file-modes-${(starts += 1)}`, window_start: 0, count: 1, expires_at: 0 }).execute();
  const files = { wal: modeOf(join(dataDir, 'kiln.sqlite3-wal')), shm: modeOf(join(dataDir, 'kiln.sqlite3-shm')) };
  await kiln.close();
  return files;
}

describe('kiln serve on a new data directory', () => {
  it('creates the directory 0700 and every file in it 0600', async () => {
    parent = mkdtempSync(join(tmpdir(), 'kiln-modes-'));
    const dataDir = join(parent, 'data');
    const running = await startAndStop(dataDir);
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(join(dataDir, 'kiln.sqlite3'))).toBe(0o600);
    expect(running).toEqual({ wal: 0o600, shm: 0o600 });
    expect(modeOf(join(dataDir, 'secrets.json'))).toBe(0o600);
    expect(modeOf(join(dataDir, 'initial_root_password'))).toBe(0o600);
  });
});

describe('kiln serve on a data directory made before', () => {
  it('tightens a readable directory, database and WAL files to 0700 and 0600', async () => {
    parent = mkdtempSync(join(tmpdir(), 'kiln-modes-'));
    const dataDir = join(parent, 'data');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    await startAndStop(dataDir);
    for (const file of ['kiln.sqlite3', 'kiln.sqlite3-wal', 'kiln.sqlite3-shm']) {
      writeFileSync(join(dataDir, file), '', { flag: 'a' });
      chmodSync(join(dataDir, file), 0o644);
    }
    chmodSync(dataDir, 0o755);
    const running = await startAndStop(dataDir);
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(join(dataDir, 'kiln.sqlite3'))).toBe(0o600);
    expect(running).toEqual({ wal: 0o600, shm: 0o600 });
  });

  it('leaves a shared sticky directory such as /tmp alone', async () => {
    parent = mkdtempSync(join(tmpdir(), 'kiln-modes-'));
    const shared = join(parent, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    await startAndStop(shared);
    expect(statSync(shared).mode & 0o7777).toBe(0o1777);
    expect(modeOf(join(shared, 'kiln.sqlite3'))).toBe(0o600);
  });
});
