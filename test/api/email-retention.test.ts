// Outbox retention (KILN_MAIL_RETENTION_DAYS, 30 days by default): a daily job of the email feature
// deletes sent and dead messages older than that with their .eml files, never a queued one. Without
// KILN_SMTP_URL the messages are real files under <data>/mail, written by the delivery job.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { loadConfig, ConfigError } from '../../src/config.js';
import { emailFeature } from '../../src/email/index.js';
import { PRUNE_OUTBOX_JOB, pruneOutbox } from '../../src/email/prune-outbox.js';
import { mailDirectory } from '../../src/email/transport.js';

const DAY = 86_400_000;
let kiln: TestKiln;
let owner: TestUser;
let watcher: TestUser;
let project: any;

async function queuedJobs(): Promise<number[]> {
  const rows = await kiln.deps.db.selectFrom('jobs').select('run_at').where('kind', '=', PRUNE_OUTBOX_JOB).where('state', '=', 'queued').execute();
  return rows.map((row) => Number(row.run_at));
}

async function outbox() {
  return kiln.deps.db.selectFrom('email_outbox').select(['id', 'subject', 'state', 'file']).orderBy('id').execute();
}

/** Open an issue the watcher is mailed about, and deliver it (an .eml file). */
async function mailAbout(title: string) {
  expect((await kiln.api('POST', `/projects/${project.id}/issues`, { token: owner.token, body: { title } })).status).toBe(201);
  await kiln.worker.drain();
}

/** A message in a given state, queued and last changed at the given times. */
async function insertMessage(subject: string, state: 'queued' | 'sent' | 'dead', createdAt: number, updatedAt = createdAt, file: string | null = null) {
  await kiln.deps.db.insertInto('email_outbox').values({
    from_address: 'kiln@kiln.test', to_address: 'someone@example.com', user_id: null, subject, message_id: `${subject}@kiln.test`, headers: '{}',
    text_body: 'text', html_body: '<p>html</p>', state, attempts: state === 'queued' ? 0 : 1, last_error: state === 'dead' ? 'refused' : null,
    file, cause_job_id: null, created_at: createdAt, updated_at: updatedAt, sent_at: state === 'sent' ? updatedAt : null,
  }).execute();
}

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  watcher = await kiln.createUser('watcher');
  project = await kiln.createProject(owner, 'mail');
  await kiln.addMember(owner, 'projects', project.id, watcher, 30);
  expect((await kiln.api('PUT', `/projects/${project.id}/notification_settings`, { token: watcher.token, body: { level: 'watch' } })).status).toBe(200);
  await kiln.worker.drain();
});
afterAll(() => kiln.close());

describe('KILN_MAIL_RETENTION_DAYS', () => {
  it('defaults to 30 days and refuses a value below one day', () => {
    expect(loadConfig({}).mailRetentionDays).toBe(30);
    expect(loadConfig({ KILN_MAIL_RETENTION_DAYS: '90' }).mailRetentionDays).toBe(90);
    expect(() => loadConfig({ KILN_MAIL_RETENTION_DAYS: '0' })).toThrow(ConfigError);
  });
});

describe('the outbox retention job', () => {
  it('is queued once at start, and starting again (another node) queues no second one', async () => {
    expect(await queuedJobs()).toHaveLength(1);
    await Promise.all([emailFeature.onStart!(kiln.deps), emailFeature.onStart!(kiln.deps)]);
    expect(await queuedJobs()).toHaveLength(1);
  });

  it('deletes sent and dead messages older than 30 days with their files, keeps queued and younger ones, and runs again a day later', async () => {
    await mailAbout('Old news');
    const [sent] = await outbox();
    expect(sent).toMatchObject({ subject: 'mail | Old news (#1)', state: 'sent', file: `${sent.id}.eml` });
    const directory = mailDirectory(kiln.deps.config);
    expect(existsSync(join(directory, sent.file!))).toBe(true);
    const start = kiln.clock.now();
    await insertMessage('old dead', 'dead', start, start);
    await insertMessage('old queued', 'queued', start);
    kiln.clock.advance(30 * DAY);
    await mailAbout('Fresh news');
    // Exactly 30 days old is kept: only what is older goes.
    await kiln.worker.drain();
    expect((await outbox()).map((row) => row.subject)).toEqual(['mail | Old news (#1)', 'old dead', 'old queued', 'mail | Fresh news (#2)']);
    expect(await queuedJobs()).toEqual([kiln.clock.now() + DAY]);
    kiln.clock.advance(DAY);
    await kiln.worker.drain();
    expect((await outbox()).map((row) => [row.subject, row.state])).toEqual([['old queued', 'queued'], ['mail | Fresh news (#2)', 'sent']]);
    expect(existsSync(join(directory, sent.file!))).toBe(false);
    expect(readdirSync(directory)).toEqual([(await outbox())[1].file]);
  });

  it('honours the configured retention, goes through a backlog in batches, and keeps a message that changed after the cutoff', async () => {
    await kiln.deps.db.deleteFrom('email_outbox').execute();
    const now = kiln.clock.now();
    const directory = mailDirectory(kiln.deps.config);
    writeFileSync(join(directory, 'backlog.eml'), 'message');
    await insertMessage('old 1', 'sent', now - 10 * DAY, now - 10 * DAY, 'backlog.eml');
    // Queued 10 days ago, dead only yesterday after its retries: younger than the cutoff, kept.
    await insertMessage('retried', 'dead', now - 10 * DAY, now - DAY);
    await insertMessage('old 2', 'sent', now - 9 * DAY);
    await insertMessage('old 3', 'dead', now - 9 * DAY);
    await insertMessage('old 4', 'sent', now - 8 * DAY);
    // A file name that is not the transport's is never removed (nor followed out of the directory).
    writeFileSync(join(kiln.deps.config.dataDir, 'keep.eml'), 'not in the mail directory');
    await insertMessage('odd file', 'sent', now - 8 * DAY, now - 8 * DAY, '../keep.eml');
    await insertMessage('recent', 'sent', now - DAY);
    const deps = { ...kiln.deps, config: { ...kiln.deps.config, mailRetentionDays: 7 } };
    expect(await pruneOutbox(deps, 2)).toEqual({ emailsPruned: 5, filesRemoved: 1 });
    expect((await outbox()).map((row) => row.subject)).toEqual(['retried', 'recent']);
    expect(existsSync(join(directory, 'backlog.eml'))).toBe(false);
    expect(existsSync(join(kiln.deps.config.dataDir, 'keep.eml'))).toBe(true);
  });
});
