// Outbound fan-out is bounded (issue 33): GitLab's plan limits on hooks per project (100) and per group
// (50) with its Limitable message, at most 10 channels per chat event (GitLab's limit), at most a few
// requests in flight per destination, and a delivery job that hands what it could not start in its
// time budget to a new job instead of holding the worker.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { deliverEvent } from '../../src/webhooks/deliver-event.js';
import { DESTINATION_CONCURRENCY } from '../../src/webhooks/destination-slots.js';

let kiln: TestKiln;
let owner: TestUser;
let server: Server;
let receiverUrl: string;
let inFlight = 0;
let mostInFlight = 0;
let paths: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    req.resume();
    req.on('end', () => {
      paths.push(req.url ?? '');
      setTimeout(() => {
        inFlight -= 1;
        res.end('ok');
      }, req.url?.startsWith('/slow') ? 100 : 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  receiverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  kiln = await testKiln();
  owner = await kiln.createUser('limits-owner');
  await kiln.apiAs(kiln.root, 'PUT', '/application/settings', { allow_local_requests_from_web_hooks_and_services: true });
});
afterAll(async () => {
  await kiln.close();
  await new Promise((resolve) => server.close(resolve));
});

const addHook = (path: string, suffix: string | number, body: Record<string, unknown> = {}) =>
  kiln.api('POST', path, { token: owner.token, body: { url: `${receiverUrl}/slow/${suffix}`, push_events: false, issues_events: true, ...body } });

describe('POST /projects/:id/hooks', () => {
  describe('as the owner of a project with 100 hooks', () => {
    it('refuses the 101st with GitLab\'s plan-limit message, also when two arrive at once', async () => {
      const project = await kiln.createProject(owner, 'many-hooks');
      const path = `/projects/${project.id}/hooks`;
      for (let index = 0; index < 99; index += 1) expect((await addHook(path, index)).status).toBe(201);
      const racing = await Promise.all([addHook(path, 'a'), addHook(path, 'b')]);
      expect(racing.map((result) => result.status).sort()).toEqual([201, 400]);
      const refused = await addHook(path, 'c');
      expect(refused).toMatchObject({ status: 400, body: { message: { base: ['Maximum number of project hooks (100) exceeded'] } } });
      expect((await kiln.api('GET', path, { token: owner.token, query: { per_page: 100 } })).body).toHaveLength(100);
    });
  });
});

describe('POST /groups/:id/hooks', () => {
  describe('as the owner of a group with 50 hooks', () => {
    it('refuses the 51st with GitLab\'s plan-limit message', async () => {
      const group = await kiln.createGroup(owner, 'hooked-group');
      for (let index = 0; index < 50; index += 1) expect((await addHook(`/groups/${group.id}/hooks`, index)).status).toBe(201);
      expect(await addHook(`/groups/${group.id}/hooks`, 'over')).toMatchObject({ status: 400, body: { message: { base: ['Maximum number of group hooks (50) exceeded'] } } });
    });
  });
});

describe('PUT /projects/:id/integrations/slack', () => {
  describe('as the owner', () => {
    it('refuses more than 10 channels for an event with GitLab\'s message', async () => {
      const project = await kiln.createProject(owner, 'chatty');
      const channels = Array.from({ length: 11 }, (_, index) => `c${index}`).join(',');
      const { status, body } = await kiln.api('PUT', `/projects/${project.id}/integrations/slack`, { token: owner.token, body: { webhook: `${receiverUrl}/slack`, channel: 'general', issue_channel: channels } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { issue_channel: ['cannot have more than 10 channels'] } });
      // Ten, repeated names counted once, are fine.
      const fine = await kiln.api('PUT', `/projects/${project.id}/integrations/slack`, { token: owner.token, body: { webhook: `${receiverUrl}/slack`, issue_channel: `${channels.split(',').slice(0, 10).join(',')},c0,c1` } });
      expect(fine.status).toBe(200);
    });

    it('posts an event to at most 10 channels, even for an integration saved with 200,000 before the limit', async () => {
      const project = await kiln.createProject(owner, 'flooded');
      await kiln.apiAs(owner, 'PUT', `/projects/${project.id}/integrations/slack`, { webhook: `${receiverUrl}/flood`, channel: 'general' });
      const row = await kiln.deps.db.selectFrom('chat_integrations').selectAll().where('project_id', '=', project.id).executeTakeFirstOrThrow();
      const properties = JSON.parse(row.properties);
      properties.channel = Array.from({ length: 200_000 }, (_, index) => `c${index}`).join(',');
      await kiln.deps.db.updateTable('chat_integrations').set({ properties: JSON.stringify(properties) }).where('id', '=', row.id).execute();
      paths = [];
      await kiln.apiAs(owner, 'POST', `/projects/${project.id}/issues`, { title: 'Flood' });
      await kiln.worker.drain();
      expect(paths.filter((path) => path === '/flood')).toHaveLength(10);
    });
  });
});

describe('the delivery job of an event', () => {
  it('keeps at most a few requests in flight to one destination', async () => {
    const project = await kiln.createProject(owner, 'one-receiver');
    for (let index = 0; index < 12; index += 1) await addHook(`/projects/${project.id}/hooks`, index);
    mostInFlight = 0;
    await kiln.apiAs(owner, 'POST', `/projects/${project.id}/issues`, { title: 'To twelve hooks' });
    await kiln.worker.drain();
    expect(mostInFlight).toBeGreaterThan(1);
    expect(mostInFlight).toBeLessThanOrEqual(DESTINATION_CONCURRENCY);
  });

  it('hands the hooks it could not start within its budget to a new job with the same payload', async () => {
    const project = await kiln.createProject(owner, 'late');
    const hooks = [await addHook(`/projects/${project.id}/hooks`, 'late-1'), await addHook(`/projects/${project.id}/hooks`, 'late-2')];
    await kiln.apiAs(owner, 'POST', `/projects/${project.id}/issues`, { title: 'Later' });
    const job = await kiln.deps.db.selectFrom('jobs').selectAll().where('kind', '=', 'webhooks.deliver_event').where('state', '=', 'queued').orderBy('id', 'desc').executeTakeFirstOrThrow();
    await kiln.deps.db.deleteFrom('jobs').where('id', '=', job.id).execute();
    paths = [];
    await deliverEvent(kiln.deps, JSON.parse(job.payload), performance.now() - 1);
    expect(paths).toEqual([]);
    const next = await kiln.deps.db.selectFrom('jobs').selectAll().where('kind', '=', 'webhooks.deliver_event').where('state', '=', 'queued').orderBy('id', 'desc').executeTakeFirstOrThrow();
    const carried = JSON.parse(next.payload);
    expect(carried.hookIds).toEqual(hooks.map((hook) => hook.body.id));
    expect(carried.eventUuid).toBe(JSON.parse(job.payload).eventUuid);
    expect(carried.built.data.object_attributes.title).toBe('Later');
    await kiln.worker.drain();
    expect(paths.sort()).toEqual(['/slow/late-1', '/slow/late-2']);
  });
});
