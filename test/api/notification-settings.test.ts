import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';

let kiln: TestKiln;
let alice: TestUser;
let bob: TestUser;
let group: any;
let privateGroup: any;
let project: any;

const CE_EVENTS = [
  'new_note', 'new_issue', 'reopen_issue', 'close_issue', 'reassign_issue', 'issue_due', 'new_merge_request',
  'push_to_merge_request', 'reopen_merge_request', 'close_merge_request', 'reassign_merge_request',
  'merge_merge_request', 'failed_pipeline', 'fixed_pipeline', 'success_pipeline', 'moved_project',
  'merge_when_pipeline_succeeds',
];

async function rowCount(): Promise<number> {
  return (await kiln.deps.db.selectFrom('notification_settings').select('id').execute()).length;
}

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  bob = await kiln.createUser('bob');
  group = await kiln.createGroup(alice, 'team', { visibility: 'internal' });
  privateGroup = await kiln.createGroup(alice, 'hidden');
  project = await kiln.createProject(alice, 'app', { namespace_id: group.id, visibility: 'internal' });
});
afterAll(() => kiln.close());

describe('GET /api/v4/notification_settings', () => {
  it('as a new user, answers participating and the primary e-mail, without creating a row', async () => {
    const { status, body, headers } = await kiln.api('GET', '/notification_settings', { token: bob.token });
    expect(status).toBe(200);
    expect(headers['content-type']).toBe('application/json');
    expect(body).toEqual({ level: 'participating', notification_email: 'bob@example.com' });
    expect(await rowCount()).toBe(0);
  });

  it('answers 401 without a token', async () => {
    expect((await kiln.api('GET', '/notification_settings')).body).toEqual({ message: '401 Unauthorized' });
  });
});

describe('PUT /api/v4/notification_settings', () => {
  it('changes the level and keeps it', async () => {
    const { status, body } = await kiln.api('PUT', '/notification_settings', { token: alice.token, body: { level: 'watch' } });
    expect(status).toBe(200);
    expect(body).toEqual({ level: 'watch', notification_email: 'alice@example.com' });
    expect((await kiln.api('GET', '/notification_settings', { token: alice.token })).body.level).toBe('watch');
  });

  it('accepts a verified address (the primary one counts, in any case) and an empty one resets it', async () => {
    const accepted = await kiln.api('PUT', '/notification_settings', { token: alice.token, body: { notification_email: 'ALICE@example.com' } });
    expect(accepted.status).toBe(200);
    expect(accepted.body.notification_email).toBe('alice@example.com');
    const reset = await kiln.api('PUT', '/notification_settings', { token: alice.token, body: { notification_email: '' } });
    expect(reset.body).toEqual({ level: 'watch', notification_email: 'alice@example.com' });
  });

  it('falls back to the primary address once the chosen one is no longer verified', async () => {
    const dora = await kiln.createUser('dora');
    await kiln.api('PUT', '/notification_settings', { token: dora.token, body: { notification_email: 'dora@example.com' } });
    await kiln.deps.db.updateTable('users').set({ email: 'dora@new.example', email_lower: 'dora@new.example' }).where('id', '=', dora.id).execute();
    // The old address is no longer one of hers (the primary one is kept among her addresses otherwise).
    await kiln.deps.db.deleteFrom('emails').where('email_lower', '=', 'dora@example.com').execute();
    expect((await kiln.api('GET', '/notification_settings', { token: dora.token })).body.notification_email).toBe('dora@new.example');
  });

  it('refuses an address the user has not verified', async () => {
    const { status, body } = await kiln.api('PUT', '/notification_settings', { token: alice.token, body: { notification_email: 'bob@example.com' } });
    expect(status).toBe(400);
    expect(body).toEqual({ message: { notification_email: ['must be an email you have verified'] } });
  });

  it('shows every event with stored values and nulls for never-set ones when the level is custom; new_epic on the top tier', async () => {
    const { body } = await kiln.api('PUT', '/notification_settings', { token: alice.token, body: { level: 'custom', new_note: true, close_issue: false } });
    expect(body.level).toBe('custom');
    expect(Object.keys(body.events)).toEqual([...CE_EVENTS, 'new_epic']);
    expect(body.events).toMatchObject({ new_note: true, close_issue: false, new_issue: null, failed_pipeline: null, moved_project: true, merge_when_pipeline_succeeds: false, new_epic: null });
  });

  it('stores events under another level and shows them once the level is custom', async () => {
    const watch = await kiln.api('PUT', '/notification_settings', { token: alice.token, body: { level: 'watch', new_issue: true } });
    expect(watch.body).toEqual({ level: 'watch', notification_email: 'alice@example.com' });
    const custom = await kiln.api('PUT', '/notification_settings', { token: alice.token, body: { level: 'custom' } });
    expect(custom.body.events).toMatchObject({ new_issue: true, new_note: true });
  });

  it('coerces booleans sent as strings (the python-gitlab CLI) and form bodies', async () => {
    const json = await kiln.api('PUT', '/notification_settings', { token: alice.token, body: { reopen_issue: 'true', moved_project: 'false' } });
    expect(json.body.events).toMatchObject({ reopen_issue: true, moved_project: false });
    const form = await kiln.api('PUT', '/notification_settings', { token: alice.token, form: { issue_due: 'true' } });
    expect(form.body.events.issue_due).toBe(true);
  });

  it('answers 400 for an event value that is no boolean', async () => {
    const { status, body } = await kiln.api('PUT', '/notification_settings', { token: alice.token, body: { new_note: 'maybe' } });
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'new_note is invalid' });
  });

  it('answers 400 with the model message for an unknown level', async () => {
    const { status, body } = await kiln.api('PUT', '/notification_settings', { token: alice.token, body: { level: 'loud' } });
    expect(status).toBe(400);
    expect(body).toEqual({ message: "'loud' is not a valid level" });
  });

  it('accepts every level of the vocabulary', async () => {
    for (const level of ['disabled', 'participating', 'watch', 'global', 'mention', 'custom']) {
      expect((await kiln.api('PUT', '/notification_settings', { token: bob.token, body: { level } })).body.level).toBe(level);
    }
  });
});

describe('GET /api/v4/groups/:id/notification_settings', () => {
  it('as a user who can read the group, answers level global without creating a row', async () => {
    const before = await rowCount();
    const { status, body } = await kiln.api('GET', `/groups/${group.id}/notification_settings`, { token: bob.token });
    expect(status).toBe(200);
    expect(body).toEqual({ level: 'global' });
    expect(await rowCount()).toBe(before);
  });

  it('finds the group by path, and the path id wins over python-gitlab\'s bogus query id', async () => {
    const byPath = await kiln.api('GET', '/groups/team/notification_settings', { token: bob.token });
    expect(byPath.body).toEqual({ level: 'global' });
    const bogus = await kiln.api('GET', `/groups/${group.id}/notification_settings?id=%3Cbuilt-in+function+id%3E`, { token: bob.token });
    expect(bogus.status).toBe(200);
  });

  it('as a non-member of a private group, answers 404 Group Not Found', async () => {
    const { status, body } = await kiln.api('GET', `/groups/${privateGroup.id}/notification_settings`, { token: bob.token });
    expect(status).toBe(404);
    expect(body).toEqual({ message: '404 Group Not Found' });
  });
});

describe('PUT /api/v4/groups/:id/notification_settings', () => {
  it('sets custom with events including new_epic, and GET shows the same', async () => {
    const { status, body } = await kiln.api('PUT', `/groups/${group.id}/notification_settings`, { token: bob.token, body: { level: 'custom', new_note: true, merge_when_pipeline_succeeds: false, new_epic: true } });
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['level', 'events']);
    expect(Object.keys(body.events)).toEqual([...CE_EVENTS, 'new_epic']);
    expect(body.events).toMatchObject({ new_note: true, merge_when_pipeline_succeeds: false, new_epic: true, moved_project: true, new_issue: null });
    expect((await kiln.api('GET', `/groups/${group.id}/notification_settings`, { token: bob.token })).body).toEqual(body);
  });

  it('answers 400 for an unknown level', async () => {
    const { status, body } = await kiln.api('PUT', `/groups/${group.id}/notification_settings`, { token: bob.token, body: { level: 'Custom' } });
    expect(status).toBe(400);
    expect(body).toEqual({ message: "'Custom' is not a valid level" });
  });

  it('as a non-member of a private group, answers 404 and stores nothing', async () => {
    const before = await rowCount();
    const { status } = await kiln.api('PUT', `/groups/${privateGroup.id}/notification_settings`, { token: bob.token, body: { level: 'watch' } });
    expect(status).toBe(404);
    expect(await rowCount()).toBe(before);
  });
});

describe('GET and PUT /api/v4/projects/:id/notification_settings', () => {
  it('answers level global by default, by URL-encoded path', async () => {
    const { status, body } = await kiln.api('GET', '/projects/team%2Fapp/notification_settings', { token: bob.token });
    expect(status).toBe(200);
    expect(body).toEqual({ level: 'global' });
  });

  it('never lists new_epic for a project, and ignores it when sent', async () => {
    const { body } = await kiln.api('PUT', `/projects/${project.id}/notification_settings`, { token: bob.token, body: { level: 'custom', new_epic: true, failed_pipeline: true } });
    expect(Object.keys(body.events)).toEqual(CE_EVENTS);
    expect(body.events.failed_pipeline).toBe(true);
  });

  it('keeps each user\'s setting apart', async () => {
    expect((await kiln.api('GET', `/projects/${project.id}/notification_settings`, { token: alice.token })).body).toEqual({ level: 'global' });
  });

  it('answers 400 for an unknown level and 404 for an unknown project', async () => {
    expect((await kiln.api('PUT', `/projects/${project.id}/notification_settings`, { token: bob.token, body: { level: 'x' } })).body).toEqual({ message: "'x' is not a valid level" });
    expect((await kiln.api('GET', '/projects/999999/notification_settings', { token: bob.token })).body).toEqual({ message: '404 Project Not Found' });
  });
});
