// The administrator's outbox pages: the latest messages, filtered by state, and one message whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let admin: WebSession;
let user: TestUser;
const ids: Record<string, number> = {};

beforeAll(async () => {
  kiln = await testKiln();
  user = await kiln.createUser('someone');
  for (const state of ['queued', 'sent', 'dead'] as const) {
    const row = await kiln.deps.db
      .insertInto('email_outbox')
      .values({
        from_address: 'Kiln <kiln@kiln.test>', to_address: `${state}@example.com`, user_id: null, subject: `Mail ${state}`,
        message_id: `${state}@kiln.test`, headers: JSON.stringify({ 'X-Kiln-Test': state }), text_body: `Body of ${state}`, html_body: '',
        state, last_error: state === 'dead' ? 'connection refused' : null, file: null, cause_job_id: null,
        created_at: 1_700_000_000_000, updated_at: 1_700_000_000_000, sent_at: state === 'sent' ? 1_700_000_000_000 : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids[state] = Number(row.id);
  }
  admin = new WebSession(kiln);
  await admin.signIn(kiln.root.username, kiln.root.password);
});

afterAll(async () => {
  await kiln?.close();
});

describe('GET /admin/emails', () => {
  describe('as an administrator', () => {
    it('lists every message, newest first', async () => {
      const response = await admin.get('/admin/emails');
      expect(response.statusCode).toBe(200);
      const rows = [...response.body.matchAll(/data-email="(\d+)"/g)].map((match) => Number(match[1]));
      expect(rows).toEqual([ids.dead, ids.sent, ids.queued]);
    });

    it('lists only the messages in the state asked for', async () => {
      const response = await admin.get('/admin/emails?state=dead');
      expect([...response.body.matchAll(/data-email="(\d+)"/g)].map((match) => Number(match[1]))).toEqual([ids.dead]);
      expect(response.body).toContain('connection refused');
    });

    it('ignores a state it does not know', async () => {
      const response = await admin.get('/admin/emails?state=bogus');
      expect([...response.body.matchAll(/data-email="(\d+)"/g)]).toHaveLength(3);
    });
  });

  describe('as another user', () => {
    it('is refused', async () => {
      const session = new WebSession(kiln);
      await session.signIn(user.username, user.password);
      expect((await session.get('/admin/emails')).statusCode).toBe(404);
    });
  });
});

describe('GET /admin/emails/:id', () => {
  describe('as an administrator', () => {
    it('shows the message with its headers and text', async () => {
      const response = await admin.get(`/admin/emails/${ids.sent}`);
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('X-Kiln-Test');
      expect(response.body).toContain('Body of sent');
    });

    it('answers 404 for a message that does not exist', async () => {
      expect((await admin.get(`/admin/emails/${ids.dead + 1000}`)).statusCode).toBe(404);
    });
  });
});
