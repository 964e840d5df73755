import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';

const sample = JSON.parse(readFileSync(new URL('../fixtures/alertmanager-webhook-sample.json', import.meta.url), 'utf8'));

let kiln: TestKiln;
let alice: TestUser;
let project: any;
let integration: any;
let notifyPath: string;

async function post(path: string, body: unknown, options: { key?: string | null; headers?: Record<string, string>; raw?: string; contentType?: string } = {}) {
  const headers: Record<string, string> = { 'content-type': options.contentType ?? 'application/json', ...(options.headers ?? {}) };
  const key = options.key === undefined ? integration.token : options.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  const response = await kiln.app.inject({ method: 'POST', url: path, headers, payload: options.raw ?? JSON.stringify(body) });
  return { status: response.statusCode, body: response.body === '' ? null : JSON.parse(response.body), headers: response.headers };
}

async function alerts(query: Record<string, string> = {}) {
  const { body } = await kiln.api('GET', `/projects/${project.id}/alert_management_alerts`, { token: alice.token, query: { per_page: '100', ...query } });
  return body as any[];
}

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  const group = await kiln.createGroup(alice, 'ops');
  const sub = await kiln.createGroup(alice, 'web', { parent_id: group.id });
  project = await kiln.createProject(alice, 'shop', { namespace_id: sub.id });
  const created = await kiln.api('POST', `/projects/${project.id}/alert_management/integrations`, { token: alice.token, body: { name: 'Main endpoint' } });
  integration = created.body;
  notifyPath = new URL(integration.url).pathname;
});
afterAll(() => kiln.close());

describe('POST /:full_path/alerts/notify/:name/:endpoint_identifier.json', () => {
  it('has the URL of a nested-group project with the slug of the name', () => {
    expect(notifyPath).toBe(`/ops/web/shop/alerts/notify/main-endpoint/${integration.endpoint_identifier ?? notifyPath.split('/').pop()!.replace('.json', '')}.json`);
    expect(notifyPath).toMatch(/^\/ops\/web\/shop\/alerts\/notify\/main-endpoint\/[0-9a-f]{16}\.json$/);
  });

  describe('with the Bearer key', () => {
    it('answers 200 with the iid and title of the alert, and stores every field', async () => {
      const payload = {
        title: 'Disk full on db-1', description: 'Only 1% left', start_time: '2026-11-22T07:00:00Z', service: 'postgres', monitoring_tool: 'Nagios',
        hosts: 'db-1', severity: 'HIGH', fingerprint: 'disk-db-1', gitlab_environment_name: 'production', extra: { nested: [1, 2] },
      };
      const { status, body, headers } = await post(notifyPath, payload);
      expect(status).toBe(200);
      expect(headers['content-type']).toBe('application/json');
      expect(body).toEqual([{ iid: expect.any(Number), title: 'Disk full on db-1' }]);
      const { body: alert } = await kiln.api('GET', `/projects/${project.id}/alert_management_alerts/${body[0].iid}`, { token: alice.token });
      expect(alert).toMatchObject({
        iid: body[0].iid, title: 'Disk full on db-1', description: 'Only 1% left', severity: 'high', status: 'triggered', service: 'postgres',
        monitoring_tool: 'Nagios', hosts: ['db-1'], started_at: '2026-11-22T07:00:00.000Z', ended_at: null, events: 1,
        fingerprint: expect.stringMatching(/^[0-9a-f]{40}$/), environment: null, issue_iid: null, payload,
      });
    });

    it('links gitlab_environment_name to the project environment of that exact name', async () => {
      const environment = await kiln.api('POST', `/projects/${project.id}/environments`, { token: alice.token, body: { name: 'staging' } });
      expect(environment.status).toBe(201);
      const linked = await post(notifyPath, { title: 'On staging', gitlab_environment_name: 'staging' });
      const unknown = await post(notifyPath, { title: 'On nowhere', gitlab_environment_name: 'Staging' });
      const get = async (iid: number) => (await kiln.api('GET', `/projects/${project.id}/alert_management_alerts/${iid}`, { token: alice.token })).body;
      expect((await get(linked.body[0].iid)).environment).toEqual({ id: environment.body.id, name: 'staging' });
      expect((await get(unknown.body[0].iid)).environment).toBeNull();
    });

    it('drops the environment link once that environment is deleted, as GitLab nullifies it', async () => {
      const environment = (await kiln.api('POST', `/projects/${project.id}/environments`, { token: alice.token, body: { name: 'short-lived' } })).body;
      const linked = await post(notifyPath, { title: 'On short-lived', gitlab_environment_name: 'short-lived' });
      const get = async () => (await kiln.api('GET', `/projects/${project.id}/alert_management_alerts/${linked.body[0].iid}`, { token: alice.token })).body;
      expect((await get()).environment).toEqual({ id: environment.id, name: 'short-lived' });
      expect((await kiln.api('POST', `/projects/${project.id}/environments/${environment.id}/stop`, { token: alice.token })).status).toBe(200);
      expect((await kiln.api('DELETE', `/projects/${project.id}/environments/${environment.id}`, { token: alice.token })).status).toBe(204);
      expect((await get()).environment).toBeNull();
      const listed = (await kiln.api('GET', `/projects/${project.id}/alert_management_alerts`, { token: alice.token, query: { search: 'On short-lived' } })).body;
      expect(listed[0].environment).toBeNull();
    });

    it('applies the default title "New: Alert" to an alert without a title (Errors table)', async () => {
      const { status, body } = await post(notifyPath, { description: 'no title here' });
      expect(status).toBe(200);
      expect(body[0].title).toBe('New: Alert');
    });

    it('accepts a missing or unknown severity and makes it critical (Errors table)', async () => {
      const missing = await post(notifyPath, { title: 'no severity' });
      const unknownWord = await post(notifyPath, { title: 'odd severity', severity: 'apocalyptic' });
      const unknown = await post(notifyPath, { title: 'unknown severity', severity: 'Unknown' });
      const all = await alerts();
      const byIid = (iid: number) => all.find((a) => a.iid === iid);
      expect(byIid(missing.body[0].iid).severity).toBe('critical');
      expect(byIid(unknownWord.body[0].iid).severity).toBe('critical');
      expect(byIid(unknown.body[0].iid).severity).toBe('unknown');
    });

    it('uses the current time when start_time is missing', async () => {
      kiln.clock.set(Date.parse('2026-11-22T09:30:00.000Z'));
      const { body } = await post(notifyPath, { title: 'timeless' });
      const alert = (await alerts()).find((a) => a.iid === body[0].iid);
      expect(alert.started_at).toBe('2026-11-22T09:30:00.000Z');
    });

    it('gives each new alert the next per-project iid', async () => {
      const first = await post(notifyPath, { title: 'iid one' });
      const second = await post(notifyPath, { title: 'iid two' });
      expect(second.body[0].iid).toBe(first.body[0].iid + 1);
    });
  });

  describe('Alert state table', () => {
    it('open + identical payload (same fingerprint) → no new alert, the counter increases', async () => {
      const first = await post(notifyPath, { title: 'CPU hot', fingerprint: ['cpu', 'web-1'], hosts: ['web-1'], start_time: '2026-11-22T07:00:00Z' });
      const again = await post(notifyPath, { title: 'CPU hot', fingerprint: ['cpu', 'web-1'], hosts: ['web-2'], start_time: '2026-11-22T07:05:00Z' });
      expect(again.body[0].iid).toBe(first.body[0].iid);
      const matching = (await alerts({ search: 'CPU hot' }));
      expect(matching).toHaveLength(1);
      expect(matching[0].events).toBe(2);
      expect(matching[0].status).toBe('triggered');
    });

    it('open + identical payload without a fingerprint, differing only in start_time and hosts → grouped (paid tier)', async () => {
      const first = await post(notifyPath, { title: 'Queue backlog', service: 'jobs', hosts: 'a', start_time: '2026-11-22T07:00:00Z' });
      const again = await post(notifyPath, { title: 'Queue backlog', service: 'jobs', hosts: ['b', 'c'], start_time: '2026-11-22T07:09:00Z' });
      const different = await post(notifyPath, { title: 'Queue backlog', service: 'mail' });
      expect(again.body[0].iid).toBe(first.body[0].iid);
      expect(different.body[0].iid).not.toBe(first.body[0].iid);
      expect((await alerts({ search: 'Queue backlog' })).find((a) => a.iid === first.body[0].iid).events).toBe(2);
    });

    it('open + payload with an end time → resolved, with ended_at and system notes', async () => {
      const first = await post(notifyPath, { title: 'Latency', fingerprint: 'lat-1' });
      const recovery = await post(notifyPath, { title: 'Latency', fingerprint: 'lat-1', end_time: '2026-11-22T08:30:00Z' });
      expect(recovery.status).toBe(200);
      expect(recovery.body[0].iid).toBe(first.body[0].iid);
      const { body: alert } = await kiln.api('GET', `/projects/${project.id}/alert_management_alerts/${first.body[0].iid}`, { token: alice.token });
      expect(alert).toMatchObject({ status: 'resolved', ended_at: '2026-11-22T08:30:00.000Z', events: 1 });
      const { body: notes } = await kiln.api('GET', `/projects/${project.id}/alert_management_alerts/${first.body[0].iid}/notes`, { token: alice.token });
      expect(notes.map((n: any) => n.body)).toEqual([
        'logged an alert from **Main endpoint**',
        'logged a recovery alert from **Main endpoint**',
        'changed the status to **Resolved**',
      ]);
      expect(notes.every((n: any) => n.system && n.author.username === 'alert-bot')).toBe(true);
    });

    it('resolved + identical payload → a new alert is created instead of grouping', async () => {
      const first = await post(notifyPath, { title: 'Flapping', fingerprint: 'flap' });
      await post(notifyPath, { title: 'Flapping', fingerprint: 'flap', end_time: '2026-11-22T08:31:00Z' });
      const again = await post(notifyPath, { title: 'Flapping', fingerprint: 'flap' });
      expect(again.body[0].iid).not.toBe(first.body[0].iid);
      const flapping = await alerts({ search: 'Flapping' });
      expect(flapping.map((a) => a.status).sort()).toEqual(['resolved', 'triggered']);
      expect(flapping.find((a) => a.status === 'triggered').events).toBe(1);
    });

    it('an end time with no open alert stores the alert already resolved (docs/decisions.md)', async () => {
      const { status, body } = await post(notifyPath, { title: 'Late recovery', fingerprint: 'never-opened', end_time: '2026-11-22T08:32:00Z' });
      expect(status).toBe(200);
      const alert = (await alerts({ status: 'resolved' })).find((a) => a.iid === body[0].iid);
      expect(alert).toMatchObject({ title: 'Late recovery', status: 'resolved', ended_at: '2026-11-22T08:32:00.000Z' });
    });

    it('a repeated recovery (same fingerprint and end time) answers with the alert it resolved', async () => {
      const first = await post(notifyPath, { title: 'Retried', fingerprint: 'retried' });
      const recovery = { title: 'Retried', fingerprint: 'retried', end_time: '2026-11-22T08:33:00Z' };
      expect((await post(notifyPath, recovery)).body[0].iid).toBe(first.body[0].iid);
      expect((await post(notifyPath, recovery)).body[0].iid).toBe(first.body[0].iid);
      expect(await alerts({ status: 'all', search: 'Retried' })).toHaveLength(1);
      const later = await post(notifyPath, { ...recovery, end_time: '2026-11-22T08:34:00Z' });
      expect(later.body[0].iid).not.toBe(first.body[0].iid);
    });

    it('an acknowledged or ignored alert is still open for grouping', async () => {
      const first = await post(notifyPath, { title: 'Acked', fingerprint: 'acked' });
      await kiln.api('PUT', `/projects/${project.id}/alert_management_alerts/${first.body[0].iid}`, { token: alice.token, body: { status: 'ignored' } });
      const again = await post(notifyPath, { title: 'Acked', fingerprint: 'acked' });
      expect(again.body[0].iid).toBe(first.body[0].iid);
    });
  });

  describe('the order of checks', () => {
    it('answers 400 to a body over 1 MiB, even with a wrong key', async () => {
      const raw = JSON.stringify({ title: 'big', blob: 'x'.repeat(1024 * 1024) });
      expect((await post(notifyPath, null, { raw, key: 'wrong' })).status).toBe(400);
      expect((await post(notifyPath, null, { raw })).status).toBe(400);
    });

    it('answers 400 to JSON nested deeper than 100 levels, and accepts 100', async () => {
      const nest = (depth: number): string => (depth === 1 ? '{}' : `{"a":${nest(depth - 1)}}`);
      expect((await post(notifyPath, null, { raw: nest(101) })).status).toBe(400);
      expect((await post(notifyPath, null, { raw: nest(100) })).status).toBe(200);
    });

    it('answers 403 for an unknown endpoint identifier, before looking at the key', async () => {
      const path = notifyPath.replace(/[0-9a-f]{16}\.json$/, 'ffffffffffffffff.json');
      expect((await post(path, { title: 'x' }, { key: 'wrong' })).status).toBe(403);
    });

    it('answers 403 for an inactive integration, with the right key', async () => {
      const created = await kiln.api('POST', `/projects/${project.id}/alert_management/integrations`, { token: alice.token, body: { name: 'Paused', active: false } });
      expect((await post(new URL(created.body.url).pathname, { title: 'x' }, { key: created.body.token })).status).toBe(403);
    });

    it('answers 401 for a wrong key, a missing key, or another integration\'s key, and stores nothing', async () => {
      const before = (await alerts({ status: 'all' })).length;
      const other = await kiln.api('POST', `/projects/${project.id}/alert_management/integrations`, { token: alice.token, body: { name: 'Other' } });
      expect((await post(notifyPath, { title: 'x' }, { key: 'wrong' })).status).toBe(401);
      expect((await post(notifyPath, { title: 'x' }, { key: null })).status).toBe(401);
      expect((await post(notifyPath, { title: 'x' }, { key: other.body.token })).status).toBe(401);
      expect((await post(notifyPath, { title: 'x' }, { key: null, headers: { authorization: `Token ${integration.token}` } })).status).toBe(401);
      expect((await alerts({ status: 'all' })).length).toBe(before);
    });

    it('accepts HTTP Basic with the key as password, and a lower-case bearer prefix', async () => {
      const basic = Buffer.from(`anyone:${integration.token}`).toString('base64');
      expect((await post(notifyPath, { title: 'basic' }, { key: null, headers: { authorization: `Basic ${basic}` } })).status).toBe(200);
      expect((await post(notifyPath, { title: 'lower' }, { key: null, headers: { authorization: `bearer ${integration.token}` } })).status).toBe(200);
    });

    it('answers 400 with a message to a body that is not a JSON object, after the key check', async () => {
      const text = await post(notifyPath, null, { raw: 'title=hello', contentType: 'text/plain' });
      expect(text.status).toBe(400);
      expect(text.body.message).toMatch(/JSON object/);
      expect((await post(notifyPath, null, { raw: 'title=hello', contentType: 'text/plain', key: 'wrong' })).status).toBe(401);
      expect((await post(notifyPath, [{ title: 'array' }])).status).toBe(400);
      const invalid = await post(notifyPath, null, { raw: '{not json' });
      expect(invalid.status).toBe(400);
      expect(invalid.body.message).toBe('400 Bad request - The request body is not valid JSON');
      expect((await post(notifyPath, null, { raw: '{not json', key: 'wrong' })).status).toBe(401);
    });

    it('answers 404 for a project that does not exist', async () => {
      expect((await post('/nobody/nothing/alerts/notify/x/abc.json', { title: 'x' })).status).toBe(404);
    });

    it('needs no session and no CSRF token', async () => {
      const response = await kiln.app.inject({ method: 'POST', url: notifyPath, headers: { 'content-type': 'application/json', authorization: `Bearer ${integration.token}` }, payload: '{"title":"plain"}' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['set-cookie']).toBeUndefined();
    });

    it('does not check the cosmetic name segment', async () => {
      expect((await post(notifyPath.replace('main-endpoint', 'anything'), { title: 'renamed path' })).status).toBe(200);
    });
  });

  describe('Alertmanager webhook payloads', () => {
    it('parses each alert with the Prometheus mapping on an HTTP integration URL, then resolves it', async () => {
      const firing = await post(notifyPath, sample);
      expect(firing.status).toBe(200);
      expect(firing.body).toEqual([{ iid: expect.any(Number), title: 'p99 latency above 2s' }]);
      const repeat = await post(notifyPath, sample);
      expect(repeat.body[0].iid).toBe(firing.body[0].iid);
      const resolved = { ...sample, status: 'resolved', alerts: [{ ...sample.alerts[0], status: 'resolved', endsAt: '2026-11-22T07:45:36Z' }] };
      expect((await post(notifyPath, resolved)).body[0].iid).toBe(firing.body[0].iid);
      const { body: alert } = await kiln.api('GET', `/projects/${project.id}/alert_management_alerts/${firing.body[0].iid}`, { token: alice.token });
      expect(alert).toMatchObject({ status: 'resolved', events: 2, monitoring_tool: 'Prometheus', severity: 'critical', description: 'The API p99 latency has been above 2s for 5 minutes', ended_at: '2026-11-22T07:45:36.000Z', started_at: '2026-11-22T07:40:55.423Z' });
      expect(alert.payload).toEqual(sample.alerts[0]);
    });

    it('answers 400 when no alert of the webhook has a title and a start time', async () => {
      expect((await post(notifyPath, { ...sample, alerts: [{ labels: {} }] })).status).toBe(400);
    });
  });
});

describe('POST /:full_path/prometheus/alerts/notify.json and the legacy /:full_path/alerts/notify.json', () => {
  let other: any;
  beforeAll(async () => {
    other = await kiln.createProject(alice, 'legacy');
  });

  it('answer 403 while the project has no integration of that type', async () => {
    expect((await post('/alice/legacy/prometheus/alerts/notify.json', sample, { key: 'x' })).status).toBe(403);
    expect((await post('/alice/legacy/alerts/notify.json', { title: 'x' }, { key: 'x' })).status).toBe(403);
  });

  it('reach the Prometheus integration and the oldest active HTTP integration', async () => {
    const prometheus = (await kiln.api('POST', `/projects/${other.id}/alert_management/integrations`, { token: alice.token, body: { name: 'Prometheus', type: 'prometheus' } })).body;
    const http = (await kiln.api('POST', `/projects/${other.id}/alert_management/integrations`, { token: alice.token, body: { name: 'HTTP' } })).body;
    expect(prometheus.url).toBe('http://kiln.test/alice/legacy/prometheus/alerts/notify.json');
    const viaPrometheus = await post('/alice/legacy/prometheus/alerts/notify.json', sample, { key: prometheus.token });
    expect(viaPrometheus.status).toBe(200);
    expect((await post('/alice/legacy/prometheus/alerts/notify', sample, { key: http.token })).status).toBe(401);
    const viaLegacy = await post('/alice/legacy/alerts/notify.json', { title: 'legacy' }, { key: http.token });
    expect(viaLegacy.status).toBe(200);
    expect(viaLegacy.body[0].iid).toBe(viaPrometheus.body[0].iid + 1);
    const generic = await post('/alice/legacy/prometheus/alerts/notify.json', { title: 'not a webhook' }, { key: prometheus.token });
    expect(generic.status).toBe(422);
  });
});

describe('custom field mapping', () => {
  it('applies the mapping before grouping and resolution', async () => {
    const mapped = (await kiln.api('POST', `/projects/${project.id}/alert_management/integrations`, {
      token: alice.token,
      body: {
        name: 'Mapped',
        payload_example: '{"alert":{"name":"x","id":"1","closed":"2026-01-01T00:00:00Z"}}',
        payload_attribute_mapping: { title: { path: ['alert', 'name'], type: 'string' }, fingerprint: { path: ['alert', 'id'], type: 'string' }, end_time: { path: ['alert', 'closed'], type: 'datetime' } },
      },
    })).body;
    const path = new URL(mapped.url).pathname;
    const first = await post(path, { alert: { name: 'Mapped title', id: 'm-1' } }, { key: mapped.token });
    expect(first.body[0].title).toBe('Mapped title');
    const again = await post(path, { alert: { name: 'Mapped title', id: 'm-1' } }, { key: mapped.token });
    expect(again.body[0].iid).toBe(first.body[0].iid);
    await post(path, { alert: { name: 'Mapped title', id: 'm-1', closed: '2026-11-22T08:40:00Z' } }, { key: mapped.token });
    const alert = (await alerts({ status: 'resolved' })).find((a) => a.iid === first.body[0].iid);
    expect(alert).toMatchObject({ events: 2, ended_at: '2026-11-22T08:40:00.000Z' });
  });
});

describe('on the free tier', () => {
  let free: TestKiln;
  beforeAll(async () => {
    free = await testKiln({ tier: 'free' });
  });
  afterAll(() => free?.close());

  it('groups only by an explicit fingerprint and ignores identical payloads without one', async () => {
    const bob = await free.createUser('bob');
    const p = await free.createProject(bob, 'p');
    const created = (await free.api('POST', `/projects/${p.id}/alert_management/integrations`, { token: bob.token, body: { name: 'One' } })).body;
    const send = async (body: unknown) => JSON.parse((await free.app.inject({ method: 'POST', url: new URL(created.url).pathname, headers: { authorization: `Bearer ${created.token}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) })).body);
    const a = await send({ title: 'same' });
    const b = await send({ title: 'same' });
    expect(b[0].iid).toBe(a[0].iid + 1);
    const c = await send({ title: 'fp', fingerprint: 'x' });
    const d = await send({ title: 'fp', fingerprint: 'x' });
    expect(d[0].iid).toBe(c[0].iid);
  });
});
