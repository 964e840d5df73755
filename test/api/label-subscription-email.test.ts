// Label subscribers' e-mail against a real SMTP server (aiosmtpd, test/helpers/smtp-server.ts): a new
// issue or merge request carrying a subscribed label mails the subscriber (reason `subscribed`), and
// adding the label to one sends GitLab's relabeled e-mail ("Label added: …", no List-Unsubscribe, the
// labels page instead) to the added labels' subscribers only. GitLab's NotificationRecipient rules:
// never the actor, only who may read the issue, not whoever unsubscribed from the issue itself, and
// manual subscriptions reach even a user whose notification level is disabled.
import { afterAll, beforeAll, beforeEach, describe as describeAll, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { SMTP_SERVER_AVAILABLE, SmtpTestServer, header, mailReader, recipientNames, type ReceivedMail } from '../helpers/smtp-server.js';
import { branchWith, create, seedRepository } from './merge-requests-helpers.js';

const describe = describeAll.skipIf(!SMTP_SERVER_AVAILABLE);

let kiln: TestKiln;
let smtp: SmtpTestServer;
let delivered: () => Promise<ReceivedMail[]>;
let group: any;
let project: any;
let sibling: any;
const users: Record<string, TestUser> = {};
const GUEST = 10;
const DEVELOPER = 30;

const mailTo = (mails: ReceivedMail[], name: string) => mails.find((mail) => mail.rcptTos.includes(`${name}@example.com`))!;
const issues = () => `/projects/${project.id}/issues`;

beforeAll(async () => {
  if (!SMTP_SERVER_AVAILABLE) return;
  smtp = await SmtpTestServer.start();
  kiln = await testKiln({ smtpUrl: smtp.url, emailFrom: 'Kiln <kiln@kiln.test>' });
  delivered = mailReader(kiln, smtp);
  for (const name of ['owner', 'author', 'subscriber', 'groupsubscriber', 'elsewhere', 'disabled', 'guest', 'bystander']) users[name] = await kiln.createUser(name);
  group = await kiln.createGroup(users.owner, 'org', { visibility: 'private' });
  project = await kiln.createProject(users.owner, 'app', { namespace_id: group.id });
  sibling = await kiln.createProject(users.owner, 'sibling', { namespace_id: group.id });
  for (const name of ['author', 'subscriber', 'groupsubscriber', 'elsewhere', 'disabled', 'bystander']) await kiln.addMember(users.owner, 'groups', group.id, users[name], DEVELOPER);
  await kiln.addMember(users.owner, 'projects', project.id, users.guest, GUEST);
  await kiln.apiAs(users.disabled, 'PUT', '/notification_settings', { level: 'disabled' });
  await kiln.apiAs(users.owner, 'POST', `/projects/${project.id}/labels`, { name: 'bug', color: '#FF0000' });
  await kiln.apiAs(users.owner, 'POST', `/projects/${project.id}/labels`, { name: 'docs', color: '#0000FF' });
  const shared = await kiln.apiAs(users.owner, 'POST', `/groups/${group.id}/labels`, { name: 'urgent', color: '#00FF00' });
  for (const name of ['subscriber', 'disabled', 'guest']) expect((await kiln.api('POST', `/projects/${project.id}/labels/bug/subscribe`, { token: users[name].token })).status).toBe(201);
  // The whole group label (made on the group) reaches every project; a project's reaches only its own.
  expect((await kiln.api('POST', `/groups/${group.id}/labels/${shared.id}/subscribe`, { token: users.groupsubscriber.token })).status).toBe(201);
  expect((await kiln.api('POST', `/projects/${sibling.id}/labels/urgent/subscribe`, { token: users.elsewhere.token })).status).toBe(201);
  await seedRepository(kiln, users.owner, project.id);
  await branchWith(kiln, users.author, project.id, 'fix', [create('fix.txt', 'fixed\n')]);
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

describe('label subscribers', () => {
  it('hear of a new issue with the label (subscribed), even at level disabled; not the Guest of a confidential one', async () => {
    const issue = await kiln.apiAs(users.author, 'POST', issues(), { title: 'Crash on save', labels: 'bug,urgent' });
    const mails = await delivered();
    expect(recipientNames(mails)).toEqual(['disabled', 'groupsubscriber', 'guest', 'subscriber']);
    const mail = mailTo(mails, 'subscriber');
    expect(mail.headers.find(([name]) => name === 'Subject')?.[1]).toBe(`app | Crash on save (#${issue.iid})`);
    expect(header(mail, 'X-GitLab-NotificationReason')).toBe('subscribed');
    await kiln.apiAs(users.author, 'POST', issues(), { title: 'Secret crash', labels: 'bug', confidential: true });
    expect(recipientNames(await delivered())).toEqual(['disabled', 'subscriber']);
  });

  it('get the relabeled e-mail when the label is added, and only for the labels added', async () => {
    const issue = await kiln.apiAs(users.author, 'POST', issues(), { title: 'Typo in README' });
    expect(recipientNames(await delivered())).toEqual([]);
    await kiln.apiAs(users.bystander, 'PUT', `${issues()}/${issue.iid}`, { add_labels: 'bug,docs' });
    const mails = await delivered();
    expect(recipientNames(mails)).toEqual(['disabled', 'guest', 'subscriber']);
    const mail = mailTo(mails, 'subscriber');
    expect(header(mail, 'Subject')).toBe(`Re: app | Typo in README (#${issue.iid})`);
    expect(header(mail, 'In-Reply-To')).toBe(`<issue_${issue.id}@${new URL(kiln.config.baseUrl).hostname}>`);
    expect(mail.text).toContain('Labels added: bug and docs');
    expect(mail.html).toContain('Labels added: bug and docs');
    expect(mail.text).toContain(`${kiln.config.baseUrl}/org/app/-/labels?subscribed=true`);
    expect(header(mail, 'List-Unsubscribe')).toBeUndefined();
    expect(header(mail, 'X-GitLab-NotificationReason')).toBeUndefined();
    // Removing a label, or editing with the labels unchanged, mails nobody.
    await kiln.apiAs(users.bystander, 'PUT', `${issues()}/${issue.iid}`, { remove_labels: 'docs' });
    await kiln.apiAs(users.bystander, 'PUT', `${issues()}/${issue.iid}`, { title: 'Typo in the README' });
    expect(recipientNames(await delivered())).toEqual([]);
    // The group-wide subscriber hears of `urgent`; the sibling project's subscriber does not.
    await kiln.apiAs(users.bystander, 'PUT', `${issues()}/${issue.iid}`, { add_labels: 'urgent' });
    const urgent = await delivered();
    expect(recipientNames(urgent)).toEqual(['groupsubscriber']);
    expect(mailTo(urgent, 'groupsubscriber').text).toContain('Label added: urgent');
  });

  it('never mail the actor, nor whoever unsubscribed from the issue itself', async () => {
    const issue = await kiln.apiAs(users.author, 'POST', issues(), { title: 'Slow start' });
    // Subscribed to the issue, then unsubscribed: an explicit "not subscribed" row.
    expect((await kiln.api('POST', `${issues()}/${issue.iid}/subscribe`, { token: users.disabled.token })).status).toBe(201);
    expect((await kiln.api('POST', `${issues()}/${issue.iid}/unsubscribe`, { token: users.disabled.token })).status).toBe(201);
    await delivered();
    await kiln.apiAs(users.subscriber, 'PUT', `${issues()}/${issue.iid}`, { add_labels: 'bug' });
    expect(recipientNames(await delivered())).toEqual(['guest']);
  });

  it('stop hearing once unsubscribed from the label', async () => {
    expect((await kiln.api('POST', `/projects/${project.id}/labels/bug/unsubscribe`, { token: users.guest.token })).status).toBe(201);
    await kiln.apiAs(users.author, 'POST', issues(), { title: 'Another crash', labels: 'bug' });
    expect(recipientNames(await delivered())).toEqual(['disabled', 'subscriber']);
  });

  it('hear of a merge request opened with the label, and of the label added to one', async () => {
    const mr = await kiln.apiAs(users.author, 'POST', `/projects/${project.id}/merge_requests`, { source_branch: 'fix', target_branch: 'main', title: 'Fix the crash', labels: 'bug' });
    const opened = await delivered();
    expect(recipientNames(opened)).toEqual(['disabled', 'subscriber']);
    expect(header(mailTo(opened, 'subscriber'), 'X-GitLab-NotificationReason')).toBe('subscribed');
    await kiln.apiAs(users.bystander, 'PUT', `/projects/${project.id}/merge_requests/${mr.iid}`, { add_labels: 'urgent' });
    const relabeled = await delivered();
    expect(recipientNames(relabeled)).toEqual(['groupsubscriber']);
    const mail = mailTo(relabeled, 'groupsubscriber');
    expect(header(mail, 'Subject')).toBe(`Re: app | Fix the crash (!${mr.iid})`);
    expect(mail.text).toContain('Label added: urgent');
    expect(header(mail, 'X-GitLab-MergeRequest-IID')).toBe(String(mr.iid));
  });
});
