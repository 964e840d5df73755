import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let owner: TestUser;
let developer: TestUser;
let reporter: TestUser;
let project: any;
let ownerWeb: WebSession;
const settingsUrl = () => `/${project.path_with_namespace}/-/settings/operations`;
const listUrl = () => `/${project.path_with_namespace}/-/alert_management`;

async function integrations() {
  return (await kiln.api('GET', `/projects/${project.id}/alert_management/integrations`, { token: owner.token })).body as any[];
}

async function flashAfter(web: WebSession, response: { statusCode: number; headers: Record<string, any> }) {
  expect(response.statusCode).toBe(303);
  const page = await web.get(response.headers.location as string);
  return /<div class="flash" role="status">([^<]*)<\/div>/.exec(page.body)?.[1] ?? '';
}

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  developer = await kiln.createUser('dev');
  reporter = await kiln.createUser('rep');
  const group = await kiln.createGroup(owner, 'team');
  project = await kiln.createProject(owner, 'app', { namespace_id: group.id });
  await kiln.addMember(owner, 'projects', project.id, developer, 30);
  await kiln.addMember(owner, 'projects', project.id, reporter, 20);
  ownerWeb = new WebSession(kiln);
  await ownerWeb.signIn('owner', owner.password);
});
afterAll(() => kiln.close());

describe('GET /:full_path/-/settings/operations', () => {
  it('as an anonymous visitor redirects to sign-in', async () => {
    const response = await kiln.app.inject({ method: 'GET', url: settingsUrl() });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`/users/sign_in?return_to=${encodeURIComponent(settingsUrl())}`);
  });

  it('as a reporter answers 403', async () => {
    const web = new WebSession(kiln);
    await web.signIn('rep', reporter.password);
    expect((await web.get(settingsUrl())).statusCode).toBe(403);
  });
});

describe('POST /:full_path/-/settings/operations as a maintainer', () => {
  it('adds an integration, shows its URL and key, edits, resets the key, and deletes it', async () => {
    const flash = await flashAfter(ownerWeb, await ownerWeb.post(settingsUrl(), { action: 'create', name: 'Pager <b>', type: 'http', active: '1' }));
    expect(flash).toBe('Integration saved.');
    const [created] = await integrations();
    expect(created).toMatchObject({ name: 'Pager <b>', active: true });
    let page = (await ownerWeb.get(settingsUrl())).body;
    expect(page).toContain('Pager &lt;b&gt;');
    expect(page).not.toContain('Pager <b>');
    expect(page).toContain(`<code class="webhook-url">${created.url}</code>`);
    expect(page).toContain(`<code class="authorization-key">${created.token}</code>`);

    await ownerWeb.post(settingsUrl(), { action: 'update', integration_id: String(created.id), name: 'Pager' });
    expect((await integrations())[0]).toMatchObject({ name: 'Pager', active: false });

    expect(await flashAfter(ownerWeb, await ownerWeb.post(settingsUrl(), { action: 'reset', integration_id: String(created.id) }))).toMatch(/key was reset/);
    const reset = (await integrations())[0];
    expect(reset.token).not.toBe(created.token);
    page = (await ownerWeb.get(settingsUrl())).body;
    expect(page).toContain(reset.token);

    await ownerWeb.post(settingsUrl(), { action: 'delete', integration_id: String(created.id) });
    expect(await integrations()).toEqual([]);
  });

  it('refuses a form without the CSRF token', async () => {
    expect((await ownerWeb.post(settingsUrl(), { action: 'create', name: 'x', authenticity_token: 'forged' })).statusCode).toBe(422);
  });

  it('maps fields from a sample payload, refuses invalid JSON, and says when the mapping must be redone', async () => {
    await ownerWeb.post(settingsUrl(), { action: 'create', name: 'Mapped', type: 'http', active: '1' });
    const mapped = (await integrations()).find((i) => i.name === 'Mapped');
    const id = String(mapped.id);
    const invalid = await flashAfter(ownerWeb, await ownerWeb.post(settingsUrl(), { action: 'sample', integration_id: id, payload_example: '{broken' }));
    expect(invalid).toBe('Error: payload_example Invalid JSON string');
    await ownerWeb.post(settingsUrl(), { action: 'sample', integration_id: id, payload_example: '{"alert":{"name":"x","level":"high"},"tags":["a"]}' });
    const page = (await ownerWeb.get(settingsUrl())).body;
    expect(page).toContain('<option value="[&quot;alert&quot;,&quot;name&quot;]">alert.name</option>');
    await ownerWeb.post(settingsUrl(), { action: 'mapping', integration_id: id, map_title: '["alert","name"]', map_severity: '["alert","level"]', map_hosts: '["tags"]', map_service: '["not","offered"]' });
    expect((await integrations()).find((i) => i.name === 'Mapped').payload_attribute_mapping).toEqual({
      title: { path: ['alert', 'name'], type: 'string', label: 'alert.name' },
      severity: { path: ['alert', 'level'], type: 'string', label: 'alert.level' },
      hosts: { path: ['tags'], type: 'array', label: 'tags' },
    });
    const changed = await flashAfter(ownerWeb, await ownerWeb.post(settingsUrl(), { action: 'sample', integration_id: id, payload_example: '{"event":{"summary":"x"}}' }));
    expect(changed).toMatch(/redo the mapping/);
    expect((await ownerWeb.get(settingsUrl())).body).toContain("The sample payload changed: redo the mapping (title, hosts, severity no longer found in the sample)");
  });

  it('saves the incident settings and enforces the incident alerting tool link rule', async () => {
    await ownerWeb.post(settingsUrl(), { action: 'incident', create_issue: '1', auto_close_incident: '1' });
    expect((await kiln.api('GET', `/projects/${project.id}/alert_management/incident_settings`, { token: owner.token })).body).toMatchObject({ create_issue: true, auto_close_incident: true });
    const refused = await flashAfter(ownerWeb, await ownerWeb.post(settingsUrl(), { action: 'tool', alerting_tool_active: '1', alerting_tool_url: 'https://tool.example' }));
    expect(refused).toMatch(/^Error: alerting_tool_active another alert integration is active/);
    expect((await ownerWeb.get(settingsUrl())).body).toContain('While the incident alerting tool link is active, no other alert integration can be active');
    await ownerWeb.post(settingsUrl(), { action: 'incident' });
  });
});

describe('the test tab', () => {
  let web: WebSession;
  let id: string;
  beforeAll(async () => {
    await ownerWeb.post(settingsUrl(), { action: 'create', name: 'Testable', type: 'http', active: '1' });
    id = String((await integrations()).find((i) => i.name === 'Testable').id);
    web = new WebSession(kiln);
    await web.signIn('dev', developer.password);
  });

  it('as a developer shows the test tab but not the configuration forms', async () => {
    const page = (await web.get(settingsUrl())).body;
    expect(page).toContain('Send test alert');
    expect(page).not.toContain('Add an integration');
    expect(page).not.toContain('authorization-key');
  });

  it('as a developer sends a test alert through the ingestion path and shows success', async () => {
    const flash = await flashAfter(web, await web.post(settingsUrl(), { action: 'test', integration_id: id, payload: '{"title":"From the test tab","severity":"info"}' }));
    expect(flash).toMatch(/^Test alert sent successfully \(alert #\d+\)\.$/);
    const alerts = (await kiln.api('GET', `/projects/${project.id}/alert_management_alerts`, { token: owner.token, query: { search: 'From the test tab' } })).body;
    expect(alerts).toHaveLength(1);
    expect(alerts[0].severity).toBe('info');
  });

  it('shows an error for invalid JSON and for an inactive integration', async () => {
    expect(await flashAfter(web, await web.post(settingsUrl(), { action: 'test', integration_id: id, payload: 'nope' }))).toBe('Error: the test payload is not valid JSON.');
    await ownerWeb.post(settingsUrl(), { action: 'update', integration_id: id, name: 'Testable' });
    expect(await flashAfter(web, await web.post(settingsUrl(), { action: 'test', integration_id: id, payload: '{}' }))).toMatch(/not active/);
  });

  it('as a developer cannot change an integration', async () => {
    expect((await web.post(settingsUrl(), { action: 'reset', integration_id: id })).statusCode).toBe(403);
  });
});

describe('GET /:full_path/-/alert_management and the details page', () => {
  let endpoint: any;
  const notify = async (body: unknown) => JSON.parse((await kiln.app.inject({ method: 'POST', url: new URL(endpoint.url).pathname, headers: { authorization: `Bearer ${endpoint.token}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) })).body)[0];

  beforeAll(async () => {
    endpoint = (await kiln.api('POST', `/projects/${project.id}/alert_management/integrations`, { token: owner.token, body: { name: 'Pages' } })).body;
  });

  it('lists alerts with counts per tab, escapes their fields, searches and sorts', async () => {
    await notify({ title: '<script>alert(1)</script>', severity: 'low', start_time: '2026-11-22T01:00:00Z' });
    const resolvedOne = await notify({ title: 'Gone', fingerprint: 'gone' });
    await notify({ title: 'Gone', fingerprint: 'gone', end_time: '2026-11-22T02:00:00Z' });
    const page = (await ownerWeb.get(listUrl())).body;
    expect(page).not.toContain('<script>alert(1)</script>');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toMatch(/data-tab="resolved">Resolved <span class="badge">1<\/span>/);
    expect(page).not.toContain(`alert#${resolvedOne.iid}<`);
    const resolvedTab = (await ownerWeb.get(`${listUrl()}?status=resolved`)).body;
    expect(resolvedTab).toContain(`alert#${resolvedOne.iid}`);
    const searched = (await ownerWeb.get(`${listUrl()}?status=all&search=gone`)).body;
    expect(searched).toContain('>Gone</a>');
    expect(searched).not.toContain('&lt;script&gt;');
  });

  it('shows the details escaped with the raw payload, changes the status and creates an incident', async () => {
    const { iid } = await notify({ title: 'Details <i>', description: '"quoted" & <b>bold</b>', hosts: ['h1', 'h2'], custom: { nested: '<svg onload=x>' } });
    const url = `${listUrl()}/${iid}/details`;
    const page = (await ownerWeb.get(url)).body;
    expect(page).toContain('Details &lt;i&gt;');
    expect(page).toContain('&quot;quoted&quot; &amp; &lt;b&gt;bold&lt;/b&gt;');
    expect(page).toContain('h1, h2');
    expect(page).toContain('&lt;svg onload=x&gt;');
    expect(page).not.toContain('<svg');
    expect(page).toContain('logged an alert from Pages');

    expect(await flashAfter(ownerWeb, await ownerWeb.post(url, { action: 'status', status: 'acknowledged' }))).toBe('Status changed to Acknowledged.');
    const after = (await ownerWeb.get(url)).body;
    expect(after).toContain('changed the status to Acknowledged');
    expect((await kiln.api('GET', `/projects/${project.id}/alert_management_alerts/${iid}`, { token: owner.token })).body.status).toBe('acknowledged');

    expect(await flashAfter(ownerWeb, await ownerWeb.post(url, { action: 'incident' }))).toMatch(/^Incident #\d+ created\.$/);
    expect((await ownerWeb.get(url)).body).toContain('id="incident-link"');
  });

  it('answers 404 for an alert that does not exist and 403 to a reporter', async () => {
    expect((await ownerWeb.get(`${listUrl()}/9999/details`)).statusCode).toBe(404);
    const web = new WebSession(kiln);
    await web.signIn('rep', reporter.password);
    expect((await web.get(listUrl())).statusCode).toBe(403);
  });
});
