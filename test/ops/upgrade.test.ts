// Upgrades: a database written by the previous release (test/fixtures/upgrade: today's schema with
// data made through the API, dumped for SQLite and PostgreSQL) migrates to the current schema on
// start, ends with the same tables, columns and indexes as a fresh install, and keeps serving its data:
// tokens, projects, issues, alerts, integrations, OAuth tokens, passwords.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import pino from 'pino';
import { sql, type Kysely } from 'kysely';
import { loadConfig } from '../../src/config.js';
import { startKiln, type Kiln } from '../../src/bootstrap.js';
import { ManualClock } from '../../src/platform/clock.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import { secretsFingerprint, type InstanceSecrets } from '../../src/platform/secrets.js';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/database.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/upgrade/', import.meta.url));
const fixture = JSON.parse(readFileSync(join(FIXTURE, 'fixture.json'), 'utf8'));
const seeded = fixture[testDialect()];
const secretsFile = JSON.parse(readFileSync(join(FIXTURE, 'secrets.json'), 'utf8'));
const secrets: InstanceSecrets = {
  instanceKey: Buffer.from(secretsFile.instance_key, 'base64'),
  sessionKey: Buffer.from(secretsFile.session_key, 'base64'),
  signingKeyPem: secretsFile.signing_key_pem,
  // A file written before Kiln had SSH: no host keys.
  sshHostKeys: null,
};

async function loadFixture(testDb: TestDatabase): Promise<void> {
  if (testDialect() === 'sqlite') {
    const connection = new SQLite(join(testDb.dataDir, 'kiln.sqlite3'));
    connection.exec(readFileSync(join(FIXTURE, 'sqlite.sql'), 'utf8'));
    connection.close();
    return;
  }
  const client = new pg.Client({ connectionString: testDb.url! });
  await client.connect();
  await client.query(readFileSync(join(FIXTURE, 'postgres.sql'), 'utf8').replaceAll('__SCHEMA__.', `${testDb.schema}.`));
  await client.end();
}

/** Tables, their columns (name, type, nullability) and index names: what a migration must leave equal. */
async function shape(db: Kysely<any>): Promise<Record<string, unknown>> {
  if (testDialect() === 'sqlite') {
    const tables = (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(db)).rows;
    const result: Record<string, unknown> = {};
    for (const { name } of tables) {
      const columns = (await sql<{ name: string; type: string; notnull: number; pk: number }>`select name, type, "notnull", pk from pragma_table_info(${name}) order by name`.execute(db)).rows;
      const indexes = (await sql<{ name: string; unique: number }>`select name, "unique" from pragma_index_list(${name}) order by name`.execute(db)).rows;
      result[name] = { columns: columns.map((column) => `${column.name} ${column.type.toLowerCase()}${column.notnull ? ' not null' : ''}${column.pk ? ' pk' : ''}`), indexes: indexes.map((index) => `${index.name}${index.unique ? ' unique' : ''}`) };
    }
    return result;
  }
  const columns = (await sql<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>`
    select table_name, column_name, data_type, is_nullable from information_schema.columns where table_schema = current_schema() order by table_name, column_name`.execute(db)).rows;
  const indexes = (await sql<{ tablename: string; indexname: string }>`select tablename, indexname from pg_indexes where schemaname = current_schema() order by tablename, indexname`.execute(db)).rows;
  const result: Record<string, { columns: string[]; indexes: string[] }> = {};
  for (const column of columns) (result[column.table_name] ??= { columns: [], indexes: [] }).columns.push(`${column.column_name} ${column.data_type}${column.is_nullable === 'NO' ? ' not null' : ''}`);
  for (const index of indexes) (result[index.tablename] ??= { columns: [], indexes: [] }).indexes.push(index.indexname);
  return result;
}

describe('upgrading a database of the previous release', () => {
  let testDb: TestDatabase;
  let fresh: TestDatabase;
  let kiln: Kiln;
  let applied: string[];
  const clock = new ManualClock(Date.parse(seeded.fixture_time) + 3_600_000);

  beforeAll(async () => {
    testDb = await createTestDatabase();
    await loadFixture(testDb);
    applied = await migrateToLatest(testDb.database);
    const config = { ...loadConfig({ KILN_DATA_DIR: testDb.dataDir, KILN_BASE_URL: 'http://kiln.test', KILN_LOG_LEVEL: 'silent' }), protectedPathsPerMinute: 1_000_000 };
    kiln = await startKiln(config, { clock, log: pino({ level: 'silent' }), database: testDb.database, secrets });
    fresh = await createTestDatabase();
    await migrateToLatest(fresh.database);
  });
  afterAll(async () => {
    await kiln?.close();
    await testDb.drop();
    await fresh.database.close();
    await fresh.drop();
  });

  const api = async (method: string, path: string, token: string, body?: unknown) => {
    const response = await kiln.app.inject({ method: method as 'GET', url: `/api/v4${path}`, headers: { 'private-token': token, ...(body ? { 'content-type': 'application/json' } : {}) }, payload: body ? JSON.stringify(body) : undefined });
    return { status: response.statusCode, body: response.body ? response.json() : null };
  };

  it('applies exactly the migrations the fixture lacks, and the fixture is today\'s 12', async () => {
    expect(fixture.migrations).toHaveLength(12);
    expect(fixture.migrations.at(-1)).toBe('20261123T1500-alert-event-counts');
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(fresh.database.db);
    expect(applied.sort()).toEqual(rows.map((row) => row.name).filter((name) => !fixture.migrations.includes(name)).sort());
    expect(applied).toContain('20261123T2330-secrets-fingerprint');
  });

  it('ends with the schema of a fresh install', async () => {
    expect(await shape(testDb.database.db)).toEqual(await shape(fresh.database.db));
  });

  it('records the fingerprint of the secrets on the first start after the upgrade', async () => {
    const { rows } = await sql<{ fingerprint: string }>`select fingerprint from instance_secrets_fingerprint`.execute(testDb.database.db);
    expect(rows).toEqual([{ fingerprint: secretsFingerprint(secrets) }]);
  });

  it('keeps serving the data: tokens, users, projects, members, issues, notes, environments', async () => {
    expect(await api('GET', '/user', seeded.root_token)).toMatchObject({ status: 200, body: { username: 'root', is_admin: true } });
    expect(await api('GET', '/user', seeded.alice.token)).toMatchObject({ status: 200, body: { id: seeded.alice.id, username: 'alice' } });
    expect(await api('GET', `/projects/${seeded.project.id}`, seeded.alice.token)).toMatchObject({ status: 200, body: { path_with_namespace: 'platform/api' } });
    const issue = await api('GET', `/projects/${seeded.project.id}/issues/${seeded.issue_iid}`, seeded.alice.token);
    expect(issue).toMatchObject({ status: 200, body: { title: 'Fixture issue', description: 'Kept across upgrades', author: { username: 'alice' } } });
    const notes = await api('GET', `/projects/${seeded.project.id}/issues/${seeded.issue_iid}/notes`, seeded.alice.token);
    expect(notes.body.map((note: { body: string }) => note.body)).toContain('A note from before the upgrade');
    expect(await api('GET', `/projects/${seeded.project.id}/environments/${seeded.environment_id}`, seeded.alice.token)).toMatchObject({ status: 200, body: { name: 'production' } });
    // New rows continue the sequences (PostgreSQL) and internal ids.
    const next = await api('POST', `/projects/${seeded.project.id}/issues`, seeded.alice.token, { title: 'After the upgrade' });
    expect(next).toMatchObject({ status: 201, body: { iid: seeded.issue_iid + 1 } });
  });

  it('keeps the alert, its event count and its integration, whose stored key still works', async () => {
    const alerts = await api('GET', `/projects/${seeded.project.id}/alert_management_alerts`, seeded.root_token);
    expect(alerts).toMatchObject({ status: 200, body: [{ title: 'Disk almost full', events: 1 }] });
    const repeat = await kiln.app.inject({
      method: 'POST',
      url: seeded.integration.url_path,
      headers: { authorization: `Bearer ${seeded.integration.token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ title: 'Disk almost full', severity: 'high', fingerprint: 'disk-full' }),
    });
    expect(repeat.statusCode).toBe(200);
    expect((await api('GET', `/projects/${seeded.project.id}/alert_management_alerts`, seeded.root_token)).body).toMatchObject([{ events: 2 }]);
    const integration = await api('GET', `/projects/${seeded.project.id}/alert_management/integrations/${seeded.integration.id}`, seeded.root_token);
    expect(integration).toMatchObject({ status: 200, body: { token: seeded.integration.token } });
  });

  it('keeps OAuth access tokens, applications and passwords', async () => {
    const info = await kiln.app.inject({ method: 'GET', url: '/oauth/token/info', headers: { authorization: `Bearer ${seeded.oauth.access_token}` } });
    expect(info.statusCode).toBe(200);
    expect(info.json()).toMatchObject({ scope: ['api'], application: { uid: seeded.application.client_id } });
    const grant = await kiln.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'password', username: 'alice', password: seeded.alice.password, client_id: seeded.application.client_id, client_secret: seeded.application.secret, scope: 'api' }).toString(),
    });
    expect(grant.statusCode).toBe(200);
  });
});
