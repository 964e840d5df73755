// Merge request notification e-mail against a real SMTP server (aiosmtpd, test/helpers/smtp-server.ts):
// who gets each merge request mail (GitLab's NotificationService, NotificationRecipients::Builder and
// NotificationRecipient#notifiable?) and the messages' subject, threading and X-GitLab-* headers.
import { afterAll, beforeAll, beforeEach, describe as describeAll, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { SMTP_SERVER_AVAILABLE, SmtpTestServer, header, mailReader, type ReceivedMail } from '../helpers/smtp-server.js';
import { branchWith, create, seedRepository } from './merge-requests-helpers.js';

// Without Debian's python3-aiosmtpd (a fresh machine, not CI) there is no real SMTP server to test against.
const describe = describeAll.skipIf(!SMTP_SERVER_AVAILABLE);

let kiln: TestKiln;
let smtp: SmtpTestServer;
let delivered: () => Promise<ReceivedMail[]>;
let project: any;
let mr: any;
const users: Record<string, TestUser> = {};
const GUEST = 10;
const DEVELOPER = 30;
const MAINTAINER = 40;


const who = (mails: ReceivedMail[]) => mails.flatMap((mail) => mail.rcptTos.map((address) => address.replace(/@example\.com$/, ''))).sort();
const mailTo = (mails: ReceivedMail[], name: string) => mails.find((mail) => mail.rcptTos.includes(`${name}@example.com`))!;
const mrPath = () => `/projects/${project.id}/merge_requests/${mr.iid}`;
const host = () => new URL(kiln.config.baseUrl).hostname;

beforeAll(async () => {
  if (!SMTP_SERVER_AVAILABLE) return;
  smtp = await SmtpTestServer.start();
  kiln = await testKiln({ smtpUrl: smtp.url, emailFrom: 'Kiln <kiln@kiln.test>' });
  delivered = mailReader(kiln, smtp);
  const names = ['owner', 'author', 'assignee', 'other', 'reviewer', 'watcher', 'guestwatcher', 'customnew', 'customclose', 'mentionlevel', 'disabled', 'outsider'];
  for (const name of names) users[name] = await kiln.createUser(name);
  project = await kiln.createProject(users.owner, 'app');
  for (const name of names.filter((name) => !['owner', 'guestwatcher', 'outsider'].includes(name))) {
    await kiln.addMember(users.owner, 'projects', project.id, users[name], name === 'author' ? DEVELOPER : MAINTAINER);
  }
  await kiln.addMember(users.owner, 'projects', project.id, users.guestwatcher, GUEST);
  const level = (user: TestUser, path: string, level: string, events: Record<string, boolean> = {}) => kiln.apiAs(user, 'PUT', path, { level, ...events });
  await level(users.watcher, `/projects/${project.id}/notification_settings`, 'watch');
  // A Guest watches, but cannot read the merge requests of a private project.
  await level(users.guestwatcher, `/projects/${project.id}/notification_settings`, 'watch');
  await level(users.customnew, `/projects/${project.id}/notification_settings`, 'custom', { new_merge_request: true });
  await level(users.customclose, `/projects/${project.id}/notification_settings`, 'custom', { close_merge_request: true });
  await level(users.mentionlevel, '/notification_settings', 'mention');
  await level(users.disabled, '/notification_settings', 'disabled');
  await seedRepository(kiln, users.owner, project.id);
  await branchWith(kiln, users.author, project.id, 'login', [create('login.txt', 'form\n')]);
  await kiln.worker.drain();
  await delivered();
}, 120_000);

afterAll(async () => {
  await kiln?.close();
  await smtp?.stop();
});

beforeEach(async () => {
  if (SMTP_SERVER_AVAILABLE) await delivered();
});

describe('merge request notifications', () => {
  it('new merge request: the assignee (assigned), the reviewer (review_requested), watchers, custom new_merge_request and mentions; not the author, a Guest or disabled', async () => {
    const description = 'Adds the form. cc @mentionlevel @disabled @outsider';
    mr = await kiln.apiAs(users.author, 'POST', `/projects/${project.id}/merge_requests`, { source_branch: 'login', target_branch: 'main', title: 'Add login', description, assignee_ids: [users.assignee.id], reviewer_ids: [users.reviewer.id] });
    const mails = await delivered();
    expect(who(mails)).toEqual(['assignee', 'customnew', 'mentionlevel', 'reviewer', 'watcher']);
    expect(header(mailTo(mails, 'assignee'), 'X-GitLab-NotificationReason')).toBe('assigned');
    expect(header(mailTo(mails, 'reviewer'), 'X-GitLab-NotificationReason')).toBe('review_requested');
    expect(header(mailTo(mails, 'mentionlevel'), 'X-GitLab-NotificationReason')).toBe('mentioned');
    const mail = mailTo(mails, 'watcher');
    expect(header(mail, 'Subject')).toBe(`app | Add login (!${mr.iid})`);
    expect(header(mail, 'Message-ID')).toBe(`<merge_request_${mr.id}@${host()}>`);
    expect(header(mail, 'From')).toBe('User author <kiln@kiln.test>');
    expect([header(mail, 'X-GitLab-MergeRequest-ID'), header(mail, 'X-GitLab-MergeRequest-IID'), header(mail, 'X-GitLab-MergeRequest-State')]).toEqual([String(mr.id), String(mr.iid), 'opened']);
    expect(header(mail, 'X-GitLab-NotificationReason')).toBeUndefined();
    expect(mail.text).toContain(`User author created a merge request: !${mr.iid}`);
    expect(mail.text).toContain(`${kiln.config.baseUrl}/${project.path_with_namespace}/-/merge_requests/${mr.iid}`);
    expect(mail.text).toContain('Branches: login to main');
    expect(mail.text).toContain('Assignees: User assignee');
    expect(mail.html).toContain('Adds the form.');
  });

  it('a comment: participants, those it mentions and watchers, as an answer in the thread; the mention level only when mentioned by it', async () => {
    const note = await kiln.apiAs(users.reviewer, 'POST', `${mrPath()}/notes`, { body: 'Looks good, @customclose?' });
    const mails = await delivered();
    expect(who(mails)).toEqual(['assignee', 'author', 'customclose', 'watcher']);
    const mail = mailTo(mails, 'author');
    expect(header(mail, 'Subject')).toBe(`Re: app | Add login (!${mr.iid})`);
    expect(header(mail, 'Message-ID')).toBe(`<note_${note.id}@${host()}>`);
    expect(header(mail, 'In-Reply-To')).toBe(`<merge_request_${mr.id}@${host()}>`);
    expect(mail.text).toContain(`User reviewer commented on merge request !${mr.iid}:`);
    expect(mail.text).toContain('Looks good');
  });

  it('reassigned: participants, watchers, the previous assignee (as a mention) and the new one (assigned)', async () => {
    await kiln.apiAs(users.author, 'PUT', mrPath(), { assignee_ids: [users.other.id] });
    const mails = await delivered();
    expect(who(mails)).toEqual(['assignee', 'customclose', 'other', 'reviewer', 'watcher']);
    expect(header(mailTo(mails, 'other'), 'X-GitLab-NotificationReason')).toBe('assigned');
    expect(mailTo(mails, 'assignee').text).toContain('Assignee changed from User assignee to User other');
  });

  it('reviewers changed: the new reviewer is told a review is requested', async () => {
    await kiln.apiAs(users.author, 'PUT', mrPath(), { reviewer_ids: [users.reviewer.id, users.assignee.id] });
    const mails = await delivered();
    expect(who(mails)).toEqual(['assignee', 'customclose', 'other', 'reviewer', 'watcher']);
    expect(header(mailTo(mails, 'assignee'), 'X-GitLab-NotificationReason')).toBe('review_requested');
    expect(mailTo(mails, 'other').text).toContain('Reviewer changed from User reviewer to User assignee, User reviewer');
  });

  it('a push to the source branch: participants with the new commits listed; watchers are not mailed (GitLab excludes it for them)', async () => {
    await branchWith(kiln, users.author, project.id, 'login', [create('more.txt', 'more\n')], 'Validate the form');
    const mails = await delivered();
    expect(who(mails)).toEqual(['assignee', 'customclose', 'other', 'reviewer']);
    const text = mailTo(mails, 'reviewer').text!;
    expect(text).toContain(`User author pushed new commits to merge request !${mr.iid}`);
    expect(text).toMatch(/\* [0-9a-f]{8} - Validate the form/);
  });

  it('approved: participants and watchers hear who approved', async () => {
    await kiln.apiAs(users.reviewer, 'POST', `${mrPath()}/approve`, {});
    const mails = await delivered();
    expect(who(mails)).toEqual(['assignee', 'author', 'customclose', 'other', 'watcher']);
    expect(mailTo(mails, 'author').text).toContain(`Merge request !${mr.iid} was approved by User reviewer`);
  });

  it('an edit that mentions someone new mails only them', async () => {
    await kiln.apiAs(users.author, 'PUT', mrPath(), { description: 'Adds the form. cc @mentionlevel @disabled @outsider and @customnew' });
    const mails = await delivered();
    expect(who(mails)).toEqual(['customnew']);
    expect(mailTo(mails, 'customnew').text).toContain(`You have been mentioned in Merge Request !${mr.iid}`);
  });

  it('marked as draft, then ready: participants and watchers, with GitLab\'s wording, beside the system notes', async () => {
    await kiln.apiAs(users.author, 'PUT', mrPath(), { title: 'Draft: Add login' });
    const drafted = await delivered();
    expect(who(drafted)).toEqual(['assignee', 'customclose', 'customnew', 'other', 'reviewer', 'watcher']);
    expect(mailTo(drafted, 'watcher').text).toContain(`User author marked merge request !${mr.iid} as draft`);
    await kiln.apiAs(users.author, 'PUT', mrPath(), { title: 'Add login' });
    expect(mailTo(await delivered(), 'reviewer').text).toContain(`User author marked merge request !${mr.iid} as ready`);
    const notes = (await kiln.apiAs(users.author, 'GET', `${mrPath()}/notes?sort=asc&per_page=100`)).filter((note: any) => note.system).map((note: any) => note.body);
    expect(notes.slice(-2)).toEqual(['marked this merge request as **draft**', 'marked this merge request as **ready**']);
  });

  it('closed and reopened: participants (now also the newly mentioned) and watchers', async () => {
    await kiln.apiAs(users.other, 'PUT', mrPath(), { state_event: 'close' });
    const closed = await delivered();
    expect(who(closed)).toEqual(['assignee', 'author', 'customclose', 'customnew', 'reviewer', 'watcher']);
    expect(header(mailTo(closed, 'author'), 'X-GitLab-MergeRequest-State')).toBe('closed');
    expect(mailTo(closed, 'author').text).toContain(`Merge request !${mr.iid} was closed by User other`);
    await kiln.apiAs(users.other, 'PUT', mrPath(), { state_event: 'reopen' });
    expect(who(await delivered())).toEqual(['assignee', 'author', 'customclose', 'customnew', 'reviewer', 'watcher']);
  });

  it('merged: participants and watchers', async () => {
    await kiln.worker.drain();
    await delivered();
    const merged = await kiln.api('PUT', `${mrPath()}/merge`, { token: users.other.token, body: {} });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    const mails = await delivered();
    expect(who(mails)).toEqual(['assignee', 'author', 'customclose', 'customnew', 'reviewer', 'watcher']);
    expect(mailTo(mails, 'author').text).toContain(`Merge request !${mr.iid} was merged`);
  });

  it('subscribe and unsubscribe through the API (304 when unchanged) and the one-click List-Unsubscribe link of the mail', async () => {
    const subscribe = await kiln.api('POST', `${mrPath()}/subscribe`, { token: users.owner.token });
    expect(subscribe.status).toBe(201);
    expect(subscribe.body.subscribed).toBe(true);
    expect((await kiln.api('POST', `${mrPath()}/subscribe`, { token: users.owner.token })).status).toBe(304);
    expect((await kiln.api('GET', mrPath(), { token: users.owner.token })).body.subscribed).toBe(true);
    expect((await kiln.api('GET', mrPath(), { token: users.watcher.token })).body.subscribed).toBe(false);
    // A Guest of this private project may not read its merge requests.
    expect((await kiln.api('POST', `${mrPath()}/subscribe`, { token: users.guestwatcher.token })).status).toBe(403);
    await kiln.apiAs(users.reviewer, 'POST', `${mrPath()}/notes`, { body: 'After the merge' });
    const mails = await delivered();
    expect(who(mails)).toContain('owner');
    const link = /^<(.+)>$/.exec(header(mailTo(mails, 'author'), 'List-Unsubscribe')!)![1];
    expect(link).toMatch(new RegExp(`/-/notifications/unsubscribe/${users.author.id}-m${mr.id}-[\\w-]{43}$`));
    expect(header(mailTo(mails, 'author'), 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(mailTo(mails, 'author').text).toContain(`Unsubscribe from this thread: ${link}`);
    const path = new URL(link).pathname;
    expect((await kiln.request('GET', path)).body).toContain(`${project.path_with_namespace}!${mr.iid}`);
    const oneClick = await kiln.request('POST', path, { form: { 'List-Unsubscribe': 'One-Click' } });
    expect(oneClick.body).toContain('You have been unsubscribed');
    expect((await kiln.api('POST', `${mrPath()}/unsubscribe`, { token: users.author.token })).status).toBe(304);
    const unsubscribe = await kiln.api('POST', `${mrPath()}/unsubscribe`, { token: users.owner.token });
    expect([unsubscribe.status, unsubscribe.body.subscribed]).toEqual([201, false]);
    await kiln.apiAs(users.reviewer, 'POST', `${mrPath()}/notes`, { body: 'Once more' });
    const after = who(await delivered());
    expect(after).not.toContain('author');
    expect(after).not.toContain('owner');
    expect(after).toContain('assignee');
    // A token for an issue id does not unsubscribe from the merge request of that id, nor the reverse.
    expect((await kiln.request('GET', path.replace(`-m${mr.id}-`, `-${mr.id}-`))).statusCode).toBe(404);
  });
});
