// Merge requests in the Slack-compatible chat integration (issue 34): GitLab's MergeMessage for an
// opened, approved, unapproved, closed, reopened and merged merge request (no message for an edit,
// as GitLab's chat notifications skip `update`) to the merge request channel, GitLab's NoteMessage
// for a comment on one to the note channel, and nothing once merge_requests_events is off. Posted to
// a loopback receiver, on SQLite and PostgreSQL.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';
import { branchWith, create, openMergeRequest, seedRepository } from './merge-requests-helpers.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let server: Server;
let receiverUrl: string;
let received: any[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  receiverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  await seedRepository(kiln, w.owner, w.project.id);
  await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { allow_local_requests_from_web_hooks_and_services: true } });
  const saved = await kiln.api('PUT', `/projects/${w.project.id}/integrations/slack`, {
    token: w.maintainer.token,
    body: { webhook: `${receiverUrl}/slack`, channel: 'general', merge_request_channel: 'reviews', note_channel: 'talk', push_events: false },
  });
  expect(saved.body).toMatchObject({ active: true, merge_requests_events: true });
}, 90_000);

afterAll(async () => {
  await kiln?.close();
  await new Promise((resolve) => server?.close(resolve));
});

beforeEach(() => {
  received = [];
});

describe('merge request chat messages', () => {
  let mr: any;
  const base = () => `/projects/${w.project.id}/merge_requests/${mr.iid}`;
  const project = () => `<http://kiln.test/${w.project.path_with_namespace}|${w.project.path_with_namespace}>`;
  const mrLink = () => `<http://kiln.test/${w.project.path_with_namespace}/-/merge_requests/${mr.iid}|!${mr.iid} *Checkout &lt;fast&gt;*>`;
  const who = (user: { username: string }) => `User ${user.username} (${user.username})`;

  it('posts an opened merge request to the merge request channel with GitLab\'s wording', async () => {
    await branchWith(kiln, w.developer, w.project.id, 'checkout', [create('checkout.txt', 'fast\n')]);
    mr = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'checkout', title: 'Checkout <fast>\nsecond line', description: 'Why' });
    await kiln.worker.drain();
    expect(received).toEqual([{ channel: 'reviews', text: `${who(w.developer)} opened merge request ${mrLink()} in ${project()}`, attachments: [] }]);
  });

  it('posts nothing for an edit; approvals and a comment (to the note channel) are posted', async () => {
    await kiln.apiAs(w.developer, 'PUT', base(), { description: 'Why, again' });
    await kiln.apiAs(w.maintainer, 'POST', `${base()}/approve`);
    await kiln.apiAs(w.maintainer, 'POST', `${base()}/unapprove`);
    const note = await kiln.apiAs(w.maintainer, 'POST', `${base()}/notes`, { body: 'Looks <good>' });
    await kiln.worker.drain();
    expect(received).toEqual([
      { channel: 'reviews', text: `${who(w.maintainer)} approved merge request ${mrLink()} in ${project()}`, attachments: [] },
      { channel: 'reviews', text: `${who(w.maintainer)} unapproved merge request ${mrLink()} in ${project()}`, attachments: [] },
      {
        channel: 'talk',
        text: `${who(w.maintainer)} <http://kiln.test/${w.project.path_with_namespace}/-/merge_requests/${mr.iid}#note_${note.id}|commented on merge request !${mr.iid}> in ${project()}: *Checkout &lt;fast&gt;*`,
        attachments: [{ text: 'Looks &lt;good&gt;', color: '#345' }],
      },
    ]);
  });

  it('posts closed, then reopened as opened, then merged', async () => {
    await kiln.apiAs(w.developer, 'PUT', base(), { state_event: 'close' });
    await kiln.apiAs(w.developer, 'PUT', base(), { state_event: 'reopen' });
    await kiln.worker.drain();
    expect((await kiln.api('PUT', `${base()}/merge`, { token: w.maintainer.token })).status).toBe(200);
    await kiln.worker.drain();
    expect(received.map((message) => message.text)).toEqual([
      `${who(w.developer)} closed merge request ${mrLink()} in ${project()}`,
      `${who(w.developer)} opened merge request ${mrLink()} in ${project()}`,
      `${who(w.maintainer)} merged merge request ${mrLink()} in ${project()}`,
    ]);
  });

  it('posts nothing for merge requests once merge_requests_events is off; comments still go', async () => {
    await kiln.apiAs(w.maintainer, 'PUT', `/projects/${w.project.id}/integrations/slack`, { webhook: `${receiverUrl}/slack`, merge_requests_events: false });
    await branchWith(kiln, w.developer, w.project.id, 'quiet', [create('quiet.txt', 'q\n')]);
    const quiet = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'quiet', title: 'Quiet' });
    await kiln.apiAs(w.developer, 'POST', `/projects/${w.project.id}/merge_requests/${quiet.iid}/notes`, { body: 'still here' });
    await kiln.worker.drain();
    expect(received.map((message) => message.channel)).toEqual(['talk']);
  });
});
