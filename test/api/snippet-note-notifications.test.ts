// E-mail for comments on project snippets, against a real SMTP server (test/helpers/smtp-server.ts):
// who gets one (GitLab's NotificationRecipients::Builder::NewNote for a snippet: participants, mentions,
// watchers, custom levels with new_note, only those who read the snippet, never the commenter), and the
// message as Emails::Notes#note_snippet_email shapes it (subject, threading, the comment quoted).
import { afterAll, beforeAll, describe as describeAll, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { SMTP_SERVER_AVAILABLE, SmtpTestServer, header, mailReader, recipientNames, type ReceivedMail } from '../helpers/smtp-server.js';

const describe = describeAll.skipIf(!SMTP_SERVER_AVAILABLE);

let kiln: TestKiln;
let smtp: SmtpTestServer;
let project: any;
const users: Record<string, TestUser> = {};
const DEVELOPER = 30;
let delivered: () => Promise<ReceivedMail[]>;

async function comment(user: TestUser, snippetId: number, body: string) {
  const created = await kiln.api('POST', `/projects/${project.id}/snippets/${snippetId}/notes`, { token: user.token, body: { body } });
  expect(created.status).toBe(201);
  return created.body;
}

async function setLevel(user: TestUser, level: string, events: Record<string, boolean> = {}) {
  expect((await kiln.api('PUT', `/projects/${project.id}/notification_settings`, { token: user.token, body: { level, ...events } })).status).toBe(200);
}

beforeAll(async () => {
  if (!SMTP_SERVER_AVAILABLE) return;
  smtp = await SmtpTestServer.start();
  kiln = await testKiln({ smtpUrl: smtp.url, emailFrom: 'Kiln <kiln@kiln.test>' });
  delivered = mailReader(kiln, smtp);
  for (const name of ['owner', 'author', 'commenter', 'earlier', 'watcher', 'mentioned', 'customon', 'customoff', 'disabled', 'outsider', 'bystander']) users[name] = await kiln.createUser(name);
  const group = await kiln.createGroup(users.owner, 'team');
  project = await kiln.createProject(users.owner, 'app', { namespace_id: group.id, visibility: 'private' });
  for (const name of ['author', 'commenter', 'earlier', 'watcher', 'mentioned', 'customon', 'customoff', 'disabled', 'bystander']) {
    await kiln.addMember(users.owner, 'projects', project.id, users[name], DEVELOPER);
  }
  await setLevel(users.watcher, 'watch');
  await setLevel(users.customon, 'custom', { new_note: true });
  await setLevel(users.customoff, 'custom', { new_note: false });
  await setLevel(users.disabled, 'disabled');
});

afterAll(async () => {
  await kiln?.close();
  await smtp?.stop();
});

describe('a comment on a project snippet', () => {
  it('mails the participants, the mentioned, watchers and custom levels with new_note who read the snippet, not the commenter', async () => {
    const created = await kiln.api('POST', `/projects/${project.id}/snippets`, { token: users.author.token, body: { title: 'Deploy script', visibility: 'private', files: [{ file_path: 'deploy.sh', content: 'echo hi' }] } });
    expect(created.status).toBe(201);
    const snippet = created.body;
    await comment(users.earlier, snippet.id, 'First look');
    await delivered();
    const note = await comment(users.commenter, snippet.id, 'Ping @mentioned and @outsider, @disabled');
    const mails = await delivered();
    // author and earlier take part; the private project's outsider reads no snippet; a disabled level mails nothing, even a mention.
    expect(recipientNames(mails)).toEqual(['author', 'customon', 'earlier', 'mentioned', 'watcher']);
    const mail = mails.find((one) => one.rcptTos[0] === 'mentioned@example.com')!;
    expect(header(mail, 'Subject')).toBe(`Re: app | Deploy script ($${snippet.id})`);
    expect(header(mail, 'From')).toBe('User commenter <kiln@kiln.test>');
    expect(header(mail, 'Message-ID')).toBe(`<note_${note.id}@kiln.test>`);
    expect(header(mail, 'In-Reply-To')).toBe(`<project_snippet_${snippet.id}@kiln.test>`);
    expect(header(mail, 'X-GitLab-ProjectSnippet-ID')).toBe(String(snippet.id));
    expect(header(mail, 'X-GitLab-Project-Path')).toBe('team/app');
    expect(header(mail, 'X-GitLab-NotificationReason')).toBe('mentioned');
    expect(mail.text).toContain(`User commenter commented on snippet $${snippet.id}:`);
    expect(mail.text).toContain(`${kiln.deps.config.baseUrl}/team/app/-/snippets/${snippet.id}#note_${note.id}`);
    expect(mail.text).toContain('Ping @mentioned and @outsider, @disabled');
    expect(header(mails.find((one) => one.rcptTos[0] === 'watcher@example.com')!, 'X-GitLab-NotificationReason')).toBeUndefined();
  });

  it('goes to a watcher only where the watcher reads the snippet: a private snippet of a public project is for members', async () => {
    const open = await kiln.createProject(users.owner, 'open', { visibility: 'public' });
    await kiln.addMember(users.owner, 'projects', open.id, users.author, DEVELOPER);
    // A non-member watching the public project: a candidate of every comment there.
    expect((await kiln.api('PUT', `/projects/${open.id}/notification_settings`, { token: users.outsider.token, body: { level: 'watch' } })).status).toBe(200);
    const snippetIn = async (visibility: string) => {
      const created = await kiln.api('POST', `/projects/${open.id}/snippets`, { token: users.author.token, body: { title: visibility, visibility, files: [{ file_path: 'a.txt', content: 'x' }] } });
      expect(created.status).toBe(201);
      return created.body.id;
    };
    const hidden = await snippetIn('private');
    const shown = await snippetIn('public');
    for (const id of [hidden, shown]) {
      expect((await kiln.api('POST', `/projects/${open.id}/snippets/${id}/notes`, { token: users.owner.token, body: { body: 'Have a look' } })).status).toBe(201);
      const mails = await delivered();
      expect([id, recipientNames(mails)]).toEqual(id === hidden ? [hidden, ['author']] : [shown, ['author', 'outsider']]);
    }
  });
});
