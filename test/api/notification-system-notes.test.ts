// The participants GitLab mails at the participating level are the issue's participants as the
// participants API counts them (NotificationRecipients::Builder::Base#add_participants takes
// target.participants): system notes too, their authors and the users they name. Against a real SMTP
// server (test/helpers/smtp-server.ts).
import { afterAll, beforeAll, describe as describeAll, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { SMTP_SERVER_AVAILABLE, SmtpTestServer, mailReader, recipientNames, type ReceivedMail } from '../helpers/smtp-server.js';

const describe = describeAll.skipIf(!SMTP_SERVER_AVAILABLE);

let kiln: TestKiln;
let smtp: SmtpTestServer;
let delivered: () => Promise<ReceivedMail[]>;
let projectId: number;
const users: Record<string, TestUser> = {};

beforeAll(async () => {
  if (!SMTP_SERVER_AVAILABLE) return;
  smtp = await SmtpTestServer.start();
  kiln = await testKiln({ smtpUrl: smtp.url, emailFrom: 'Kiln <kiln@kiln.test>' });
  delivered = mailReader(kiln, smtp);
  for (const name of ['owner', 'author', 'labeller', 'bob', 'bystander']) users[name] = await kiln.createUser(name);
  projectId = (await kiln.createProject(users.owner, 'app', { visibility: 'private' })).id;
  await kiln.addMember(users.owner, 'projects', projectId, users.author, ACCESS.developer);
  await kiln.addMember(users.owner, 'projects', projectId, users.labeller, ACCESS.reporter);
  await kiln.addMember(users.owner, 'projects', projectId, users.bob, ACCESS.developer);
  await kiln.addMember(users.owner, 'projects', projectId, users.bystander, ACCESS.developer);
});

afterAll(async () => {
  await kiln?.close();
  await smtp?.stop();
});

describe('participating recipients', () => {
  it('include the authors of system notes and the users they name', async () => {
    const issue = await kiln.apiAs(users.author, 'POST', `/projects/${projectId}/issues`, { title: 'Flaky deploy' });
    // labeller only changes a label; bob is assigned and unassigned ("unassigned @bob"): system notes only.
    await kiln.apiAs(users.labeller, 'PUT', `/projects/${projectId}/issues/${issue.iid}`, { labels: 'triaged' });
    await kiln.apiAs(users.author, 'PUT', `/projects/${projectId}/issues/${issue.iid}`, { assignee_ids: [users.bob.id] });
    await kiln.apiAs(users.author, 'PUT', `/projects/${projectId}/issues/${issue.iid}`, { assignee_ids: [] });
    await delivered();
    const participants = await kiln.apiAs(users.author, 'GET', `/projects/${projectId}/issues/${issue.iid}/participants`);
    expect(participants.map((user: { username: string }) => user.username).sort()).toEqual(['author', 'bob', 'labeller']);

    await kiln.apiAs(users.author, 'POST', `/projects/${projectId}/issues/${issue.iid}/notes`, { body: 'Fixed by retrying the upload.' });
    // The same people, less the commenter; a member taking no part hears nothing at the participating level.
    expect(recipientNames(await delivered())).toEqual(['bob', 'labeller']);

    await kiln.apiAs(users.labeller, 'PUT', `/projects/${projectId}/issues/${issue.iid}`, { state_event: 'close' });
    expect(recipientNames(await delivered())).toEqual(['author', 'bob']);
  });
});
