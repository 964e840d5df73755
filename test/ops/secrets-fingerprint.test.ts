// A node refuses to start with secrets other than those its database was initialised with, naming
// the file to copy; a node without a secrets file on an initialised database does not make one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { sql } from 'kysely';
import { loadConfig, ConfigError, type Config } from '../../src/config.js';
import { startKiln } from '../../src/bootstrap.js';
import { generateSecrets, generateSshHostKeys, readSecrets, secretsFingerprint, sshHostKeysFingerprint } from '../../src/platform/secrets.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startKilnProcess } from '../clients/helpers/server.js';
import { childDatabaseEnv, runKiln } from '../platform/process-helpers.js';

const silent = pino({ level: 'silent' });

function configFor(dataDir: string): Config {
  return { ...loadConfig({ KILN_DATA_DIR: dataDir, KILN_LOG_LEVEL: 'silent' }), initialRootPassword: 'root-password-1' };
}

describe('the secrets fingerprint, in process', () => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  afterAll(async () => {
    await testDb.database.close();
    await testDb.drop();
  });

  it('the first start records the fingerprint of its secrets file; the same file starts again', async () => {
    const first = await startKiln(configFor(testDb.dataDir), { log: silent, database: testDb.reopen() });
    await first.close();
    const file = readSecrets(testDb.dataDir)!;
    const { rows } = await sql<{ fingerprint: string }>`select fingerprint from instance_secrets_fingerprint order by id`.execute(testDb.database.db);
    // Row 1 the secrets', row 2 the SSH host keys' (generated into the file at the first start).
    expect(file.sshHostKeys).not.toBeNull();
    expect(rows).toEqual([{ fingerprint: secretsFingerprint(file) }, { fingerprint: sshHostKeysFingerprint(file.sshHostKeys!) }]);
    const again = await startKiln(configFor(testDb.dataDir), { log: silent, database: testDb.reopen() });
    expect(again.deps.secrets.instanceKey.equals(file.instanceKey)).toBe(true);
    await again.close();
  });

  it('other secrets are refused with a ConfigError naming the file to copy, before root or jobs are touched', async () => {
    const before = await sql<{ n: number }>`select count(*) as n from users`.execute(testDb.database.db);
    const start = startKiln(configFor(testDb.dataDir), { log: silent, database: testDb.reopen(), secrets: generateSecrets() });
    await expect(start).rejects.toThrow(ConfigError);
    await expect(start).rejects.toThrow(`KILN_DATA_DIR: ${join(testDb.dataDir, 'secrets.json')} differs from the secrets this database was initialised with`);
    await expect(start).rejects.toThrow('copy secrets.json from a node that runs on this database (or from the backup it was restored from)');
    const after = await sql<{ n: number }>`select count(*) as n from users`.execute(testDb.database.db);
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('the same secrets with other SSH host keys are refused, naming the file to copy', async () => {
    const file = readSecrets(testDb.dataDir)!;
    const start = startKiln(configFor(testDb.dataDir), { log: silent, database: testDb.reopen(), secrets: { ...file, sshHostKeys: await generateSshHostKeys() } });
    await expect(start).rejects.toThrow(`KILN_DATA_DIR: the SSH host keys in ${join(testDb.dataDir, 'secrets.json')} differ from this instance's`);
  });

  it('a data dir without secrets.json on an initialised database is refused, and no file is made there', async () => {
    const emptyDir = mkdtempSync(join(tmpdir(), 'kiln-node2-'));
    try {
      await expect(startKiln(configFor(emptyDir), { log: silent, database: testDb.reopen() })).rejects.toThrow(
        `KILN_DATA_DIR: ${join(emptyDir, 'secrets.json')} is missing, and this database was initialised with a secrets file`,
      );
      expect(existsSync(join(emptyDir, 'secrets.json'))).toBe(false);
    } finally {
      rmSync(emptyDir, { recursive: true, force: true });
    }
  });

  it('an unreadable secrets file is refused with its path', async () => {
    const brokenDir = mkdtempSync(join(tmpdir(), 'kiln-node2-'));
    writeFileSync(join(brokenDir, 'secrets.json'), '{"instance_key": ');
    try {
      await expect(startKiln(configFor(brokenDir), { log: silent, database: testDb.reopen() })).rejects.toThrow(`KILN_DATA_DIR: ${join(brokenDir, 'secrets.json')} is not a readable secrets file`);
    } finally {
      rmSync(brokenDir, { recursive: true, force: true });
    }
  });
});

describe('a second node with other secrets', () => {
  let testDb: TestDatabase;
  let secondDir: string;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    secondDir = mkdtempSync(join(tmpdir(), 'kiln-node2-'));
  });
  afterAll(async () => {
    await testDb.database.close();
    await testDb.drop();
    rmSync(secondDir, { recursive: true, force: true });
  });

  it('is refused with one line naming the file to copy and exit code 2; with the first node\'s file it starts', { timeout: 90_000 }, async () => {
    const env = childDatabaseEnv(testDb);
    const first = await startKilnProcess({ dataDir: testDb.dataDir, env });
    await first.stop();
    // On PostgreSQL the second node has a data dir of its own; on SQLite a second node shares the
    // data dir, so the wrong file is put in its place.
    const dataDir = env.KILN_DATABASE_URL ? secondDir : testDb.dataDir;
    const original = readFileSync(join(testDb.dataDir, 'secrets.json'));
    const other = generateSecrets();
    writeFileSync(join(dataDir, 'secrets.json'), JSON.stringify({ instance_key: other.instanceKey.toString('base64'), session_key: other.sessionKey.toString('base64'), signing_key_pem: other.signingKeyPem }), { mode: 0o600 });
    const refused = await runKiln(['serve'], { KILN_DATA_DIR: dataDir, KILN_PORT: '0', ...env });
    expect(refused.code).toBe(2);
    expect(refused.stderr.trimEnd().split('\n')).toEqual([expect.stringContaining(`kiln: configuration error: KILN_DATA_DIR: ${join(dataDir, 'secrets.json')} differs from the secrets this database was initialised with`)]);
    writeFileSync(join(dataDir, 'secrets.json'), original, { mode: 0o600 });
    if (dataDir !== testDb.dataDir) copyFileSync(join(testDb.dataDir, 'secrets.json'), join(dataDir, 'secrets.json'));
    const second = await startKilnProcess({ dataDir, env });
    try {
      const response = await fetch(`${second.url}/oauth/discovery/keys`);
      expect(response.status).toBe(200);
    } finally {
      await second.stop();
    }
  });
});
