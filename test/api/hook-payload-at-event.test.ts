// Hooks and chat integrations are sent what the event saw (issue 33): the payload, the chat message
// and its channels are built in the event's transaction, so an issue made confidential (and given a
// secret text) before the delivery job runs is never sent, with its new text, to a hook or channel
// that did not ask for confidential events.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHookReceiver, type HookReceiver, type Received } from '../helpers/hook-receiver.js';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';

let kiln: TestKiln;
let receiver: HookReceiver;
let received: Received[] = [];
let owner: TestUser;
let project: any;

const atPath = (path: string) => received.filter((request) => request.path === path);

beforeAll(async () => {
  receiver = await startHookReceiver((request) => received.push(request));
  kiln = await testKiln();
  owner = await kiln.createUser('event-owner');
  project = await kiln.createProject(owner, 'events');
  await kiln.apiAs(kiln.root, 'PUT', '/application/settings', { allow_local_requests_from_web_hooks_and_services: true });
  // A hook and a Slack integration for public issue and comment events only.
  await kiln.apiAs(owner, 'POST', `/projects/${project.id}/hooks`, { url: `${receiver.url}/public-hook`, issues_events: true, note_events: true, confidential_issues_events: false, confidential_note_events: false, push_events: false });
  await kiln.apiAs(owner, 'PUT', `/projects/${project.id}/integrations/slack`, { webhook: `${receiver.url}/slack`, channel: 'general', issues_events: true, note_events: true, confidential_issues_events: false, confidential_note_events: false, push_events: false });
  // A hook that asked for confidential issue events.
  await kiln.apiAs(owner, 'POST', `/projects/${project.id}/hooks`, { url: `${receiver.url}/confidential-hook`, confidential_issues_events: true, issues_events: false, push_events: false });
  await kiln.worker.drain();
});
afterAll(async () => {
  await kiln.close();
  await receiver.close();
});
beforeEach(() => {
  received = [];
});

describe('POST /projects/:id/issues, then PUT making it confidential before the hooks are sent', () => {
  describe('to a hook and a Slack channel without confidential issue events', () => {
    it('sends the issue as it was opened, never its confidential text', async () => {
      const issue = await kiln.apiAs(owner, 'POST', `/projects/${project.id}/issues`, { title: 'Public title', description: 'public text' });
      await kiln.apiAs(owner, 'PUT', `/projects/${project.id}/issues/${issue.iid}`, { confidential: true, title: 'Secret title', description: 'secret text' });
      await kiln.worker.drain();

      const hook = atPath('/public-hook');
      expect(hook.map((request) => request.headers['x-gitlab-event'])).toEqual(['Issue Hook']);
      expect(hook[0].body.object_attributes).toMatchObject({ title: 'Public title', description: 'public text', confidential: false, action: 'open' });
      const slack = atPath('/slack');
      expect(slack).toHaveLength(1);
      expect(JSON.stringify(slack[0].body)).toContain('public text');
      for (const request of [...hook, ...slack]) {
        expect(JSON.stringify(request.body)).not.toContain('secret');
        expect(JSON.stringify(request.body)).not.toContain('Secret');
      }
      // The hook that asked for confidential events is sent the change that made it confidential.
      const confidential = atPath('/confidential-hook');
      expect(confidential.map((request) => request.headers['x-gitlab-event'])).toEqual(['Confidential Issue Hook']);
      expect(confidential[0].body.object_attributes).toMatchObject({ description: 'secret text', confidential: true });
    });
  });
});

describe('POST /projects/:id/issues/:iid/notes, then the issue made confidential and the note edited before the hooks are sent', () => {
  describe('to a hook and a Slack channel without confidential note events', () => {
    it('sends the comment and its issue as they were', async () => {
      const issue = await kiln.apiAs(owner, 'POST', `/projects/${project.id}/issues`, { title: 'Open issue', description: 'open text' });
      await kiln.worker.drain();
      received = [];
      const note = await kiln.apiAs(owner, 'POST', `/projects/${project.id}/issues/${issue.iid}/notes`, { body: 'public comment' });
      await kiln.apiAs(owner, 'PUT', `/projects/${project.id}/issues/${issue.iid}`, { confidential: true, description: 'secret text' });
      await kiln.apiAs(owner, 'PUT', `/projects/${project.id}/issues/${issue.iid}/notes/${note.id}`, { body: 'secret comment' });
      await kiln.worker.drain();

      const hook = atPath('/public-hook');
      expect(hook.map((request) => request.headers['x-gitlab-event'])).toEqual(['Note Hook']);
      expect(hook[0].body.object_attributes.note).toBe('public comment');
      expect(hook[0].body.issue).toMatchObject({ description: 'open text', confidential: false });
      const slack = atPath('/slack');
      expect(slack).toHaveLength(1);
      expect(JSON.stringify(slack[0].body)).toContain('public comment');
      for (const request of [...hook, ...slack]) expect(JSON.stringify(request.body)).not.toContain('secret');
    });
  });
});

describe('the delivery job', () => {
  it('carries the payload built at the event, and sends that payload each time it runs', async () => {
    await kiln.apiAs(owner, 'POST', `/projects/${project.id}/issues`, { title: 'Built once', description: 'as opened' });
    const job = await kiln.deps.db.selectFrom('jobs').selectAll().where('kind', '=', 'webhooks.deliver_event').where('state', '=', 'queued').orderBy('id', 'desc').executeTakeFirstOrThrow();
    const payload = JSON.parse(job.payload);
    expect(payload.built).toMatchObject({ event: 'Issue Hook', trigger: 'issue_hooks', data: { object_attributes: { title: 'Built once', description: 'as opened' } } });
    await kiln.worker.drain();
  });
});
