import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';

let kiln: TestKiln;
let owner: TestUser;
let developer: TestUser;
let reporter: TestUser;
let project: any;
let integration: any;

async function notify(body: unknown, target = integration) {
  const response = await kiln.app.inject({ method: 'POST', url: new URL(target.url).pathname, headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  if (response.statusCode !== 200) throw new Error(`notify failed: ${response.statusCode} ${response.body}`);
  return JSON.parse(response.body)[0] as { iid: number; title: string };
}

const alertsPath = () => `/projects/${project.id}/alert_management_alerts`;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  developer = await kiln.createUser('dev');
  reporter = await kiln.createUser('rep');
  project = await kiln.createProject(owner, 'svc');
  await kiln.addMember(owner, 'projects', project.id, developer, 30);
  await kiln.addMember(owner, 'projects', project.id, reporter, 20);
  integration = (await kiln.api('POST', `/projects/${project.id}/alert_management/integrations`, { token: owner.token, body: { name: 'Endpoint' } })).body;
  await notify({ title: 'Low disk', severity: 'low', service: 'db', start_time: '2026-11-22T01:00:00Z' });
  await notify({ title: 'Site down', severity: 'critical', description: 'checkout returns 502', start_time: '2026-11-22T02:00:00Z' });
  await notify({ title: 'Slow pages', severity: 'medium', monitoring_tool: 'Pingdom', start_time: '2026-11-22T03:00:00Z', fingerprint: 'slow' });
  await notify({ title: 'Slow pages', fingerprint: 'slow' });
  await notify({ title: 'Slow pages', fingerprint: 'slow' });
});
afterAll(() => kiln.close());

describe('GET /api/v4/projects/:id/alert_management_alerts', () => {
  it('as a developer lists alerts, newest start first, with pagination headers', async () => {
    const { status, body, headers } = await kiln.api('GET', alertsPath(), { token: developer.token });
    expect(status).toBe(200);
    expect(body.map((a: any) => a.title)).toEqual(['Slow pages', 'Site down', 'Low disk']);
    expect(headers['x-total']).toBe('3');
    expect(body[0].events).toBe(3);
  });

  it('filters by status and searches title, description, service and monitoring tool', async () => {
    expect((await kiln.api('GET', alertsPath(), { token: developer.token, query: { search: '502' } })).body.map((a: any) => a.title)).toEqual(['Site down']);
    expect((await kiln.api('GET', alertsPath(), { token: developer.token, query: { search: 'pingdom' } })).body.map((a: any) => a.title)).toEqual(['Slow pages']);
    expect((await kiln.api('GET', alertsPath(), { token: developer.token, query: { search: 'DB' } })).body.map((a: any) => a.title)).toEqual(['Low disk']);
    expect((await kiln.api('GET', alertsPath(), { token: developer.token, query: { status: 'resolved' } })).body).toEqual([]);
    expect((await kiln.api('GET', alertsPath(), { token: developer.token, query: { status: 'bogus' } })).body).toEqual({ error: 'status does not have a valid value' });
  });

  it('sorts by severity (desc = most critical first) and by event count', async () => {
    const severity = await kiln.api('GET', alertsPath(), { token: developer.token, query: { sort: 'severity_desc' } });
    expect(severity.body.map((a: any) => a.severity)).toEqual(['critical', 'medium', 'low']);
    const events = await kiln.api('GET', alertsPath(), { token: developer.token, query: { sort: 'event_count_desc' } });
    expect(events.body[0].title).toBe('Slow pages');
  });

  it('as a reporter returns 403', async () => {
    expect((await kiln.api('GET', alertsPath(), { token: reporter.token })).status).toBe(403);
  });
});

describe('who reads and changes alerts', () => {
  it('as a reporter: 403 on the alert, its notes and create_incident', async () => {
    expect((await kiln.api('GET', `${alertsPath()}/1`, { token: reporter.token })).status).toBe(403);
    expect((await kiln.api('GET', `${alertsPath()}/1/notes`, { token: reporter.token })).status).toBe(403);
    expect((await kiln.api('POST', `${alertsPath()}/1/create_incident`, { token: reporter.token })).status).toBe(403);
  });

  it('as a non-member of the private project: 404; anonymous: 401', async () => {
    const stranger = await kiln.createUser('stranger');
    expect((await kiln.api('GET', alertsPath(), { token: stranger.token })).body).toEqual({ message: '404 Project Not Found' });
    expect((await kiln.api('GET', alertsPath())).status).toBe(401);
  });

  it('as an administrator who is no member: lists them', async () => {
    const admin = await kiln.createUser('alerts-admin', { admin: true });
    const { status, body } = await kiln.api('GET', alertsPath(), { token: admin.token });
    expect(status).toBe(200);
    expect(body.length).toBeGreaterThan(0);
  });
});

describe('GET /api/v4/projects/:id/alert_management_alerts/:alert_iid', () => {
  it('answers 404 for an unknown iid', async () => {
    expect((await kiln.api('GET', `${alertsPath()}/999`, { token: developer.token })).body).toEqual({ message: '404 Not found' });
  });
});

describe('PUT /api/v4/projects/:id/alert_management_alerts/:alert_iid', () => {
  it('as a developer acknowledges, resolves (stamping ended_at) and reopens (clearing it), with system notes', async () => {
    const { iid } = await notify({ title: 'Cycle' });
    const acked = await kiln.api('PUT', `${alertsPath()}/${iid}`, { token: developer.token, body: { status: 'acknowledged' } });
    expect(acked.status).toBe(200);
    expect(acked.body).toMatchObject({ status: 'acknowledged', ended_at: null });
    kiln.clock.advance(60_000);
    const resolved = await kiln.api('PUT', `${alertsPath()}/${iid}`, { token: developer.token, body: { status: 'resolved' } });
    expect(resolved.body).toMatchObject({ status: 'resolved', ended_at: '2026-11-22T08:01:00.000Z' });
    const reopened = await kiln.api('PUT', `${alertsPath()}/${iid}`, { token: developer.token, body: { status: 'triggered' } });
    expect(reopened.body).toMatchObject({ status: 'triggered', ended_at: null });
    const notes = (await kiln.api('GET', `${alertsPath()}/${iid}/notes`, { token: developer.token })).body;
    expect(notes.slice(1).map((n: any) => [n.body, n.author.username])).toEqual([
      ['changed the status to **Acknowledged**', 'dev'],
      ['changed the status to **Resolved**', 'dev'],
      ['changed the status to **Triggered**', 'dev'],
    ]);
  });

  it('refuses to reopen an alert while another alert with its fingerprint is open', async () => {
    const first = await notify({ title: 'Dup', fingerprint: 'dup' });
    await notify({ title: 'Dup', fingerprint: 'dup', end_time: '2026-11-22T08:00:00Z' });
    await notify({ title: 'Dup', fingerprint: 'dup' });
    const refused = await kiln.api('PUT', `${alertsPath()}/${first.iid}`, { token: developer.token, body: { status: 'acknowledged' } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toEqual({ fingerprint: ['Cannot have multiple unresolved alerts'] });
  });

  it('refuses an unknown status and a reporter', async () => {
    expect((await kiln.api('PUT', `${alertsPath()}/1`, { token: developer.token, body: { status: 'open' } })).status).toBe(400);
    expect((await kiln.api('PUT', `${alertsPath()}/1`, { token: reporter.token, body: { status: 'ignored' } })).status).toBe(403);
  });
});

describe('incidents', () => {
  let p: any;
  let endpoint: any;
  const settings = () => `/projects/${p.id}/alert_management/incident_settings`;
  const alertOf = async (iid: number) => (await kiln.api('GET', `/projects/${p.id}/alert_management_alerts/${iid}`, { token: owner.token })).body;
  const issueOf = async (iid: number) => (await kiln.api('GET', `/projects/${p.id}/issues/${iid}`, { token: owner.token })).body;

  beforeAll(async () => {
    p = await kiln.createProject(owner, 'incidents');
    endpoint = (await kiln.api('POST', `/projects/${p.id}/alert_management/integrations`, { token: owner.token, body: { name: 'Endpoint' } })).body;
  });

  it('with create_issue off, a new alert opens no incident', async () => {
    expect((await kiln.api('GET', settings(), { token: owner.token })).body).toEqual({ create_issue: false, send_email: false, auto_close_incident: true, alerting_tool_active: false, alerting_tool_url: null });
    const { iid } = await notify({ title: 'Quiet' }, endpoint);
    await kiln.worker.drain();
    expect((await alertOf(iid)).issue_iid).toBeNull();
  });

  it('with create_issue on, a new alert opens one incident through the job queue and links it; grouped posts open no more', async () => {
    await kiln.api('PUT', settings(), { token: owner.token, body: { create_issue: true } });
    const { iid } = await notify({ title: 'Payments failing', fingerprint: 'pay', severity: 'high' }, endpoint);
    expect((await alertOf(iid)).issue_iid).toBeNull();
    await notify({ title: 'Payments failing', fingerprint: 'pay' }, endpoint);
    await kiln.worker.drain();
    const alert = await alertOf(iid);
    expect(alert.issue_iid).toEqual(expect.any(Number));
    const issue = await issueOf(alert.issue_iid);
    expect(issue).toMatchObject({ title: 'Payments failing', issue_type: 'incident', state: 'opened', author: { username: 'alert-bot' } });
    expect(issue.description).toContain('**Severity:** high');
    const incidents = (await kiln.api('GET', `/projects/${p.id}/issues`, { token: owner.token, query: { issue_type: 'incident' } })).body;
    expect(incidents).toHaveLength(1);
    const notes = (await kiln.api('GET', `/projects/${p.id}/alert_management_alerts/${iid}/notes`, { token: owner.token })).body;
    expect(notes.map((n: any) => n.body)).toContain(`created incident #${alert.issue_iid} for this alert`);
  });

  it('an alert that resolves closes its incident when auto-close is on', async () => {
    const { iid } = await notify({ title: 'Auto close', fingerprint: 'ac' }, endpoint);
    await kiln.worker.drain();
    await notify({ title: 'Auto close', fingerprint: 'ac', end_time: '2026-11-22T08:10:00Z' }, endpoint);
    await kiln.worker.drain();
    const issue = await issueOf((await alertOf(iid)).issue_iid);
    expect(issue.state).toBe('closed');
    expect(issue.closed_by.username).toBe('alert-bot');
  });

  it('leaves the incident open when auto-close is off', async () => {
    await kiln.api('PUT', settings(), { token: owner.token, body: { auto_close_incident: false } });
    const { iid } = await notify({ title: 'Manual close', fingerprint: 'mc' }, endpoint);
    await kiln.worker.drain();
    await notify({ title: 'Manual close', fingerprint: 'mc', end_time: '2026-11-22T08:10:00Z' }, endpoint);
    await kiln.worker.drain();
    expect((await issueOf((await alertOf(iid)).issue_iid)).state).toBe('opened');
    await kiln.api('PUT', settings(), { token: owner.token, body: { create_issue: false, auto_close_incident: true } });
  });

  it('a resolved-on-arrival alert opens no incident', async () => {
    await kiln.api('PUT', settings(), { token: owner.token, body: { create_issue: true } });
    const { iid } = await notify({ title: 'Already over', fingerprint: 'over', end_time: '2026-11-22T08:10:00Z' }, endpoint);
    await kiln.worker.drain();
    expect((await alertOf(iid)).issue_iid).toBeNull();
    await kiln.api('PUT', settings(), { token: owner.token, body: { create_issue: false } });
  });

  it('POST …/:alert_iid/create_incident opens one incident, and a second call keeps it', async () => {
    const { iid } = await notify({ title: 'By hand' }, endpoint);
    const first = await kiln.api('POST', `/projects/${p.id}/alert_management_alerts/${iid}/create_incident`, { token: developer.token });
    expect(first.status).toBe(404); // not a member of this private project
    const created = await kiln.api('POST', `/projects/${p.id}/alert_management_alerts/${iid}/create_incident`, { token: owner.token });
    expect(created.status).toBe(201);
    const again = await kiln.api('POST', `/projects/${p.id}/alert_management_alerts/${iid}/create_incident`, { token: owner.token });
    expect(again.body.issue_iid).toBe(created.body.issue_iid);
    expect((await issueOf(created.body.issue_iid)).author.username).toBe('owner');
  });
});
