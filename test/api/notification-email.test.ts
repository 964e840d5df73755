// Notification e-mail against a real SMTP server (aiosmtpd, test/helpers/smtp-server.ts): who gets
// each issue notification at each level (GitLab's NotificationService and NotificationRecipient),
// new mentions when an issue is edited, the messages' headers and threading, subscriptions, the unsubscribe link, retries while the SMTP
// server is down, and new-alert mail to Owners and Maintainers.
import { afterAll, beforeAll, beforeEach, describe as describeAll, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { createServer, type Socket } from 'node:net';
import { SMTP_SERVER_AVAILABLE, SmtpTestServer, header, type ReceivedMail } from '../helpers/smtp-server.js';

// Without Debian's python3-aiosmtpd (a fresh machine, not CI) there is no real SMTP server to test against.
const describe = describeAll.skipIf(!SMTP_SERVER_AVAILABLE);

let kiln: TestKiln;
let smtp: SmtpTestServer;
let project: any;
let group: any;
const users: Record<string, TestUser> = {};

const DEVELOPER = 30;
const GUEST = 10;
const MAINTAINER = 40;

async function setLevel(user: TestUser, path: string, level: string, events: Record<string, boolean> = {}) {
  const { status } = await kiln.api('PUT', path, { token: user.token, body: { level, ...events } });
  expect(status).toBe(200);
}

/** Run every due job (notification, then delivery) and return the messages that arrived. */
/** Messages the SMTP server received before its last `forget()`. */
let forgotten = 0;

/**
 * Wait until the SMTP server has recorded every message the outbox marks sent: the server records a
 * message from its output, which can reach this process after the SMTP reply that let the job finish.
 */
async function arrived(): Promise<ReceivedMail[]> {
  const sent = await kiln.deps.db.selectFrom('email_outbox').select('id').where('state', '=', 'sent').execute();
  return smtp.waitFor(sent.length - forgotten);
}

function forget(): void {
  forgotten += smtp.messages.length;
  smtp.clear();
}

async function delivered(): Promise<ReceivedMail[]> {
  await kiln.worker.drain();
  const queued = await kiln.deps.db.selectFrom('email_outbox').select('id').where('state', '=', 'queued').execute();
  expect(queued).toEqual([]);
  const mails = [...(await arrived())];
  forget();
  return mails;
}

function recipientsOf(mails: ReceivedMail[]): string[] {
  return mails.flatMap((mail) => mail.rcptTos.map((address) => address.replace(/@example\.com$/, ''))).sort();
}

async function openIssue(author: TestUser, body: Record<string, unknown>) {
  const { status, body: issue } = await kiln.api('POST', `/projects/${project.id}/issues`, { token: author.token, body });
  expect(status).toBe(201);
  return issue;
}

beforeAll(async () => {
  if (!SMTP_SERVER_AVAILABLE) return;
  smtp = await SmtpTestServer.start();
  kiln = await testKiln({ smtpUrl: smtp.url, emailFrom: 'Kiln <kiln@kiln.test>' });
  for (const name of ['author', 'actor', 'participant', 'watcher', 'groupwatcher', 'globalwatcher', 'mentionlevel', 'customclose', 'disabled', 'guestwatcher', 'blockedwatcher', 'outsider', 'owner']) {
    users[name] = await kiln.createUser(name);
  }
  group = await kiln.createGroup(users.owner, 'team');
  project = await kiln.createProject(users.owner, 'app', { namespace_id: group.id });
  await kiln.addMember(users.owner, 'groups', group.id, users.groupwatcher, DEVELOPER);
  for (const name of ['author', 'actor', 'participant', 'watcher', 'globalwatcher', 'mentionlevel', 'customclose', 'disabled', 'blockedwatcher']) {
    await kiln.addMember(users.owner, 'projects', project.id, users[name], DEVELOPER);
  }
  await kiln.addMember(users.owner, 'projects', project.id, users.guestwatcher, GUEST);
  await setLevel(users.watcher, `/projects/${project.id}/notification_settings`, 'watch');
  await setLevel(users.guestwatcher, `/projects/${project.id}/notification_settings`, 'watch');
  await setLevel(users.blockedwatcher, `/projects/${project.id}/notification_settings`, 'watch');
  await setLevel(users.groupwatcher, `/groups/${group.id}/notification_settings`, 'watch');
  await setLevel(users.globalwatcher, '/notification_settings', 'watch');
  await setLevel(users.mentionlevel, '/notification_settings', 'mention');
  await setLevel(users.customclose, `/projects/${project.id}/notification_settings`, 'custom', { close_issue: true });
  await setLevel(users.disabled, '/notification_settings', 'disabled');
  // Blocked by an administrator (the users API's block is tested with the users API).
  await kiln.deps.db.updateTable('users').set({ state: 'blocked' }).where('id', '=', users.blockedwatcher.id).execute();
  await kiln.worker.drain();
  await arrived();
  forget();
}, 60_000);

afterAll(async () => {
  await kiln?.close();
  await smtp?.stop();
});

beforeEach(async () => {
  if (!SMTP_SERVER_AVAILABLE) return;
  await kiln.worker.drain();
  await arrived();
  forget();
});

// The rows of GitLab's notification table for the events Kiln produces: for each action, who is
// notified among participants, watchers (project, group, global), custom levels, mention level,
// disabled, a Guest watcher and a blocked watcher.
describe('issue notifications (level × action)', () => {
  let issue: any;

  it('new issue: watchers at every level, mentioned users whose level allows it; not the author, not disabled, not blocked', async () => {
    issue = await openIssue(users.author, { title: 'Login fails', description: 'Seen by @participant and @mentionlevel and @disabled, not `@outsider`.' });
    expect(recipientsOf(await delivered())).toEqual(['globalwatcher', 'groupwatcher', 'guestwatcher', 'mentionlevel', 'participant', 'watcher']);
  });

  it('close: participants and watchers and custom close_issue; the mention level and the closer get nothing', async () => {
    expect((await kiln.api('PUT', `/projects/${project.id}/issues/${issue.iid}`, { token: users.actor.token, body: { state_event: 'close' } })).status).toBe(200);
    expect(recipientsOf(await delivered())).toEqual(['author', 'customclose', 'globalwatcher', 'groupwatcher', 'guestwatcher', 'participant', 'watcher']);
  });

  it('reopen: as close, without the custom level that asked only for close_issue', async () => {
    expect((await kiln.api('PUT', `/projects/${project.id}/issues/${issue.iid}`, { token: users.actor.token, body: { state_event: 'reopen' } })).status).toBe(200);
    expect(recipientsOf(await delivered())).toEqual(['author', 'globalwatcher', 'groupwatcher', 'guestwatcher', 'participant', 'watcher']);
  });

  it('new note: participants, watchers and users the note mentions (a custom level counts a mention)', async () => {
    expect((await kiln.api('POST', `/projects/${project.id}/issues/${issue.iid}/notes`, { token: users.actor.token, body: { body: 'Asking @customclose' } })).status).toBe(201);
    expect(recipientsOf(await delivered())).toEqual(['author', 'customclose', 'globalwatcher', 'groupwatcher', 'guestwatcher', 'participant', 'watcher']);
  });

  it('a commenter becomes a participant: the next close reaches them', async () => {
    expect((await kiln.api('PUT', `/projects/${project.id}/issues/${issue.iid}`, { token: users.author.token, body: { state_event: 'close' } })).status).toBe(200);
    expect(recipientsOf(await delivered())).toEqual(['actor', 'customclose', 'globalwatcher', 'groupwatcher', 'guestwatcher', 'participant', 'watcher']);
    expect((await kiln.api('PUT', `/projects/${project.id}/issues/${issue.iid}`, { token: users.author.token, body: { state_event: 'reopen' } })).status).toBe(200);
    await delivered();
  });

  it('a system note sends nothing; a rolled-back action sends nothing', async () => {
    const blank = await kiln.api('POST', `/projects/${project.id}/issues/${issue.iid}/notes`, { token: users.actor.token, body: { body: '   ' } });
    expect(blank.status).toBe(400);
    expect(await delivered()).toEqual([]);
  });

  it('a confidential issue is not mailed to a Guest watcher, nor to anyone who cannot read it', async () => {
    await openIssue(users.author, { title: 'Secret', description: 'cc @participant', confidential: true });
    expect(recipientsOf(await delivered())).toEqual(['globalwatcher', 'groupwatcher', 'participant', 'watcher']);
  });
});

describe('reassign and due date', () => {
  it('reassign: the new assignee (reason assigned) and the previous one as mentions, participants and watchers', async () => {
    const issue = await openIssue(users.author, { title: 'Assign me', assignee_ids: [users.mentionlevel.id] });
    const created = await delivered();
    // Assignees of a new issue are mailed as participants (reason assigned): the mention level does not allow that.
    expect(recipientsOf(created)).not.toContain('mentionlevel');
    const put = await kiln.api('PUT', `/projects/${project.id}/issues/${issue.iid}`, { token: users.actor.token, body: { assignee_ids: [users.disabled.id] } });
    expect(put.status).toBe(200);
    const mails = await delivered();
    // The new assignee has notifications disabled: a mention does not pass `disabled`.
    expect(recipientsOf(mails)).toEqual(['author', 'globalwatcher', 'groupwatcher', 'guestwatcher', 'mentionlevel', 'watcher']);
    const previous = mails.find((mail) => mail.rcptTos[0] === 'mentionlevel@example.com')!;
    expect(header(previous, 'X-GitLab-NotificationReason')).toBeUndefined();
    expect(previous.text).toContain('Assignee changed to User disabled');
    await kiln.api('PUT', `/projects/${project.id}/issues/${issue.iid}`, { token: users.actor.token, body: { assignee_ids: [users.participant.id] } });
    const again = (await delivered()).find((mail) => mail.rcptTos[0] === 'participant@example.com')!;
    expect(header(again, 'X-GitLab-NotificationReason')).toBe('assigned');
  });

  it('issue due: the day before, participants and the author, not watchers (GitLab excludes issue_due for watch)', async () => {
    const { publishIssuesDue } = await import('../../src/notifications/issues-due.js');
    const tomorrow = new Date(kiln.clock.now() + 86_400_000).toISOString().slice(0, 10);
    const issue = await openIssue(users.author, { title: 'Due soon', description: 'for @participant', due_date: tomorrow });
    await delivered();
    expect(await publishIssuesDue(kiln.deps)).toBe(1);
    const mails = await delivered();
    expect(recipientsOf(mails)).toEqual(['author', 'participant']);
    expect(mails[0].text).toContain(`Issue #${issue.iid} is due: ${tomorrow}`);
  });
});

// GitLab's new_mentions_in_issue: an edit of the title or description mails the users it newly
// mentions, as far as a new issue would mail them; edited comments mail nobody.
describe('new mentions when an issue is edited', () => {
  const edit = async (iid: number, body: Record<string, unknown>) => expect((await kiln.api('PUT', `/projects/${project.id}/issues/${iid}`, { token: users.actor.token, body })).status).toBe(200);

  it('mails only the users the edit added to the description, whose level allows a mention, as an answer in the thread', async () => {
    const issue = await openIssue(users.author, { title: 'Mentions', description: 'cc @participant' });
    await delivered();
    await edit(issue.iid, { description: 'cc @participant, @watcher, @mentionlevel, @disabled, @outsider and @actor' });
    const mails = await delivered();
    // participant was mentioned before; disabled has mail off; outsider cannot read the project; actor edited.
    expect(recipientsOf(mails)).toEqual(['mentionlevel', 'watcher']);
    for (const mail of mails) {
      expect(header(mail, 'X-GitLab-NotificationReason')).toBe('mentioned');
      expect(header(mail, 'Subject')).toBe(`Re: app | Mentions (#${issue.iid})`);
      expect(header(mail, 'In-Reply-To')).toBe(`<issue_${issue.id}@kiln.test>`);
      expect(header(mail, 'From')).toBe('User actor <kiln@kiln.test>');
      expect(mail.text).toContain('You have been mentioned in an issue.');
      expect(mail.text).toContain('@outsider and @actor');
    }
    expect(mails[0].html).toContain('You have been mentioned in an issue.');
  });

  it('counts the title; an edit that mentions nobody new, or moves a mention between the texts, mails nobody', async () => {
    const issue = await openIssue(users.author, { title: 'Titled', description: 'for @watcher' });
    await delivered();
    await edit(issue.iid, { description: 'still for @watcher, reworded' });
    expect(await delivered()).toEqual([]);
    await edit(issue.iid, { title: 'Titled for @watcher', description: 'no one' });
    expect(await delivered()).toEqual([]);
    await edit(issue.iid, { title: 'Titled for @author' });
    const mails = await delivered();
    expect(recipientsOf(mails)).toEqual(['author']);
    expect(header(mails[0], 'Subject')).toBe(`Re: app | Titled for @author (#${issue.iid})`);
  });

  it('an edit that adds a mention and a label mails the mention once', async () => {
    const issue = await openIssue(users.author, { title: 'Labelled', description: 'nobody' });
    await delivered();
    await edit(issue.iid, { description: 'now @mentionlevel', labels: 'bug' });
    expect(recipientsOf(await delivered())).toEqual(['mentionlevel']);
  });

  it('an edited comment mails nobody, whoever it now mentions', async () => {
    const issue = await openIssue(users.author, { title: 'Comment edits', description: 'nobody' });
    const note = (await kiln.api('POST', `/projects/${project.id}/issues/${issue.iid}/notes`, { token: users.actor.token, body: { body: 'first words' } })).body;
    await delivered();
    const changed = await kiln.api('PUT', `/projects/${project.id}/issues/${issue.iid}/notes/${note.id}`, { token: users.actor.token, body: { body: 'now with @mentionlevel' } });
    expect(changed.status).toBe(200);
    expect(await delivered()).toEqual([]);
  });
});

describe('POST /api/v4/projects/:id/issues/:issue_iid/subscribe', () => {
  describe('as a member with notifications disabled', () => {
    it('returns 201 with subscribed true, then 304; the subscriber is mailed whatever the level', async () => {
      const issue = await openIssue(users.author, { title: 'Subscribe me' });
      await delivered();
      const first = await kiln.api('POST', `/projects/${project.id}/issues/${issue.iid}/subscribe`, { token: users.disabled.token });
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({ iid: issue.iid, subscribed: true });
      expect((await kiln.api('POST', `/projects/${project.id}/issues/${issue.iid}/subscribe`, { token: users.disabled.token })).status).toBe(304);
      await kiln.api('POST', `/projects/${project.id}/issues/${issue.iid}/notes`, { token: users.actor.token, body: { body: 'update' } });
      const mails = await delivered();
      const mail = mails.find((each) => each.rcptTos.includes('disabled@example.com'));
      expect(mail && header(mail, 'X-GitLab-NotificationReason')).toBe('subscribed');
    });
  });

  describe('as a non-member of a private project', () => {
    it('returns 404', async () => {
      const hidden = await kiln.createProject(users.owner, 'hidden');
      const issue = (await kiln.api('POST', `/projects/${hidden.id}/issues`, { token: users.owner.token, body: { title: 'x' } })).body;
      expect((await kiln.api('POST', `/projects/${hidden.id}/issues/${issue.iid}/subscribe`, { token: users.outsider.token })).status).toBe(404);
    });
  });
});

describe('POST /api/v4/projects/:id/issues/:issue_iid/unsubscribe', () => {
  describe('as the author (a participant)', () => {
    it('returns 201 with subscribed false, then 304; the author gets no more mail unless mentioned', async () => {
      const issue = await openIssue(users.author, { title: 'Unsubscribe me' });
      await delivered();
      const first = await kiln.api('POST', `/projects/${project.id}/issues/${issue.iid}/unsubscribe`, { token: users.author.token });
      expect(first.status).toBe(201);
      expect(first.body.subscribed).toBe(false);
      expect((await kiln.api('POST', `/projects/${project.id}/issues/${issue.iid}/unsubscribe`, { token: users.author.token })).status).toBe(304);
      await kiln.api('POST', `/projects/${project.id}/issues/${issue.iid}/notes`, { token: users.actor.token, body: { body: 'no mail for the author' } });
      expect(recipientsOf(await delivered())).not.toContain('author');
      await kiln.api('POST', `/projects/${project.id}/issues/${issue.iid}/notes`, { token: users.actor.token, body: { body: 'but @author is mentioned' } });
      expect(recipientsOf(await delivered())).toContain('author');
    });
  });
});

describe('the messages', () => {
  it('are multipart text and HTML with GitLab subject, threading, X-GitLab-* and List-* headers', async () => {
    const issue = await openIssue(users.author, { title: 'Threaded', description: 'Some **bold** text' });
    const [created] = (await delivered()).filter((mail) => mail.rcptTos[0] === 'watcher@example.com');
    expect(created.contentType).toBe('multipart/alternative');
    expect(header(created, 'Subject')).toBe(`app | Threaded (#${issue.iid})`);
    expect(header(created, 'Message-ID')).toBe(`<issue_${issue.id}@kiln.test>`);
    expect(header(created, 'In-Reply-To')).toBeUndefined();
    expect(header(created, 'From')).toBe('User author <kiln@kiln.test>');
    expect(header(created, 'To')).toBe('watcher@example.com');
    expect(header(created, 'X-GitLab-Project')).toBe('app');
    expect(header(created, 'X-GitLab-Project-Id')).toBe(String(project.id));
    expect(header(created, 'X-GitLab-Project-Path')).toBe('team/app');
    expect(header(created, 'X-GitLab-Issue-IID')).toBe(String(issue.iid));
    expect(header(created, 'X-GitLab-NotificationReason')).toBeUndefined();
    expect(header(created, 'List-Id')).toBe(`team/app <${project.id}.app.team.kiln.test>`);
    expect(header(created, 'List-Unsubscribe')).toMatch(/^<http:\/\/kiln\.test\/-\/notifications\/unsubscribe\/\d+-\d+-[\w-]{43}>$/);
    expect(header(created, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(created.text).toContain(`http://kiln.test/team/app/-/issues/${issue.iid}`);
    expect(created.text).toContain('Some **bold** text');
    expect(created.html).toContain('<strong>bold</strong>');
    expect(created.html).toContain(`href="http://kiln.test/team/app/-/issues/${issue.iid}"`);

    const note = (await kiln.api('POST', `/projects/${project.id}/issues/${issue.iid}/notes`, { token: users.actor.token, body: { body: 'A reply' } })).body;
    const [reply] = (await delivered()).filter((mail) => mail.rcptTos[0] === 'watcher@example.com');
    expect(header(reply, 'Subject')).toBe(`Re: app | Threaded (#${issue.iid})`);
    expect(header(reply, 'Message-ID')).toBe(`<note_${note.id}@kiln.test>`);
    expect(header(reply, 'In-Reply-To')).toBe(`<issue_${issue.id}@kiln.test>`);
    expect(header(reply, 'References')).toBe(`<issue_${issue.id}@kiln.test>`);
    expect(reply.text).toContain('A reply');

    await kiln.api('PUT', `/projects/${project.id}/issues/${issue.iid}`, { token: users.actor.token, body: { state_event: 'close' } });
    const closed = (await delivered()).filter((mail) => mail.rcptTos[0] === 'author@example.com');
    expect(closed).toHaveLength(1);
    expect(header(closed[0], 'In-Reply-To')).toBe(`<issue_${issue.id}@kiln.test>`);
    expect(closed[0].text).toContain('was closed by User actor');
  });

  it('go to the chosen notification e-mail (a confirmed secondary address), else to the primary address', async () => {
    const now = kiln.clock.now();
    await kiln.deps.db.insertInto('emails').values({ user_id: users.watcher.id, email: 'watcher.alerts@example.org', email_lower: 'watcher.alerts@example.org', confirmed_at: now, confirmation_digest: null, confirmation_sent_at: null, created_at: now, updated_at: now }).execute();
    expect((await kiln.api('PUT', '/notification_settings', { token: users.watcher.token, body: { notification_email: 'watcher.alerts@example.org' } })).status).toBe(200);
    await openIssue(users.author, { title: 'Address' });
    const to = (await delivered()).flatMap((mail) => mail.rcptTos);
    expect(to).toContain('watcher.alerts@example.org');
    expect(to).not.toContain('watcher@example.com');
    // The address stops being confirmed (removed): mail falls back to the primary address.
    await kiln.deps.db.deleteFrom('emails').where('email_lower', '=', 'watcher.alerts@example.org').execute();
    await openIssue(users.author, { title: 'Address again' });
    expect((await delivered()).flatMap((mail) => mail.rcptTos)).toContain('watcher@example.com');
  });
});

describe('GET and POST /-/notifications/unsubscribe/:token', () => {
  it('shows the issue, unsubscribes on POST (one-click, no sign-in), and refuses a forged token', async () => {
    const issue = await openIssue(users.author, { title: 'Link' });
    const [mail] = (await delivered()).filter((each) => each.rcptTos[0] === 'watcher@example.com');
    const link = /^<(.+)>$/.exec(header(mail, 'List-Unsubscribe')!)![1];
    const path = new URL(link).pathname;
    const page = await kiln.request('GET', path);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`team/app#${issue.iid}`);
    const oneClick = await kiln.request('POST', path, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, form: { 'List-Unsubscribe': 'One-Click' } });
    expect(oneClick.statusCode).toBe(200);
    expect(oneClick.body).toContain('You have been unsubscribed');
    const state = await kiln.api('POST', `/projects/${project.id}/issues/${issue.iid}/unsubscribe`, { token: users.watcher.token });
    expect(state.status).toBe(304);
    await kiln.api('POST', `/projects/${project.id}/issues/${issue.iid}/notes`, { token: users.actor.token, body: { body: 'watchers too' } });
    expect(recipientsOf(await delivered())).not.toContain('watcher');
    const forged = path.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'));
    expect((await kiln.request('GET', forged)).statusCode).toBe(404);
    expect((await kiln.request('POST', forged, { form: { 'List-Unsubscribe': 'One-Click' } })).statusCode).toBe(404);
  });
});

describe('delivery', () => {
  it('retries with backoff while the SMTP server is down and delivers when it comes back', async () => {
    await smtp.down();
    await openIssue(users.author, { title: 'While down' });
    await kiln.worker.drain();
    const failed = await kiln.deps.db.selectFrom('email_outbox').select(['state', 'attempts', 'last_error']).where('state', '=', 'queued').execute();
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((row) => row.attempts === 1 && row.last_error !== null)).toBe(true);
    await smtp.up();
    kiln.clock.advance(1_000);
    await kiln.worker.drain();
    expect(recipientsOf(await arrived())).toEqual(['globalwatcher', 'groupwatcher', 'guestwatcher', 'watcher']);
    forget();
  }, 30_000);

  it('marks the messages dead after the last try and shows them to admins', async () => {
    await smtp.down();
    await openIssue(users.author, { title: 'Never delivered' });
    for (let attempt = 0; attempt < 12; attempt += 1) {
      await kiln.worker.drain();
      kiln.clock.advance(11 * 60_000);
    }
    const dead = await kiln.deps.db.selectFrom('email_outbox').select(['id', 'attempts']).where('state', '=', 'dead').execute();
    expect(dead.length).toBe(4);
    await smtp.up();
    expect(dead.every((row) => row.attempts === 12)).toBe(true);
  }, 60_000);
});

describe('an SMTP server that accepts connections and never answers', () => {
  it('does not slow the requests that cause mail while the worker waits on it', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const stalled = await testKiln({ smtpUrl: `smtp://127.0.0.1:${port}`, workerPollMs: 10 });
    try {
      const owner = await stalled.createUser('stallowner');
      const fan = await stalled.createUser('stallwatcher');
      const target = await stalled.createProject(owner, 'stall');
      await stalled.addMember(owner, 'projects', target.id, fan, DEVELOPER);
      await stalled.api('PUT', `/projects/${target.id}/notification_settings`, { token: fan.token, body: { level: 'watch' } });
      stalled.worker.start();
      await stalled.api('POST', `/projects/${target.id}/issues`, { token: owner.token, body: { title: 'first' } });
      // The worker is now connected to the silent server, waiting for a greeting that never comes.
      const deadline = Date.now() + 5_000;
      while (sockets.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(sockets.length).toBeGreaterThan(0);
      const started = Date.now();
      for (let i = 0; i < 5; i += 1) expect((await stalled.api('POST', `/projects/${target.id}/issues`, { token: owner.token, body: { title: `more ${i}` } })).status).toBe(201);
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
      await stalled.close();
    }
  }, 60_000);
});

describe('new alert e-mail', () => {
  it('reaches Owners and Maintainers once per new alert when send_email is on, not for a repeat', async () => {
    await kiln.api('PUT', `/projects/${project.id}/members/${users.participant.id}`, { token: users.owner.token, body: { access_level: MAINTAINER } });
    const settings = await kiln.api('PUT', `/projects/${project.id}/alert_management/incident_settings`, { token: users.owner.token, body: { send_email: true } });
    expect(settings.status).toBe(200);
    expect(settings.body.send_email).toBe(true);
    const integration = await kiln.api('POST', `/projects/${project.id}/alert_management/integrations`, { token: users.owner.token, body: { name: 'HTTP', active: true } });
    expect(integration.status).toBe(201);
    const notify = (payload: unknown) => kiln.request('POST', new URL(integration.body.url).pathname, { headers: { authorization: `Bearer ${integration.body.token}` }, body: payload });
    expect((await notify({ title: 'Disk full', fingerprint: 'disk', severity: 'high' })).statusCode).toBe(200);
    expect((await notify({ title: 'Disk full', fingerprint: 'disk', severity: 'high' })).statusCode).toBe(200);
    const mails = await delivered();
    expect(recipientsOf(mails)).toEqual(['owner', 'participant']);
    expect(header(mails[0], 'Subject')).toBe('app | Alert: Disk full');
    expect(mails[0].text).toContain('Severity: High');
  });
});
