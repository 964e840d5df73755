// The per-project rules of alert integrations hold under concurrent requests (on PostgreSQL, several
// nodes answer at once): one Prometheus integration per project, and no active integration while
// the incident alerting tool link is active (and the other way round).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';

let kiln: TestKiln;
let owner: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('racer');
});
afterAll(() => kiln.close());

const statuses = (results: Array<{ status: number }>) => results.map((result) => result.status).sort();

describe('concurrent changes to one project\'s alert integrations', () => {
  it('create one Prometheus integration out of many simultaneous requests', async () => {
    const project = await kiln.createProject(owner, 'race-prometheus');
    const create = () => kiln.api('POST', `/projects/${project.id}/alert_management/integrations`, { token: owner.token, body: { name: 'Prometheus', type: 'prometheus' } });
    const results = await Promise.all(Array.from({ length: 6 }, create));
    expect(statuses(results)).toEqual([201, 400, 400, 400, 400, 400]);
    const { body } = await kiln.api('GET', `/projects/${project.id}/alert_management/integrations`, { token: owner.token });
    expect(body.filter((integration: any) => integration.type === 'prometheus')).toHaveLength(1);
  });

  it('never leave an integration active beside an active alerting tool link', async () => {
    const project = await kiln.createProject(owner, 'race-tool');
    const path = `/projects/${project.id}/alert_management`;
    const integrations = [];
    for (let i = 0; i < 4; i += 1) {
      integrations.push((await kiln.api('POST', `${path}/integrations`, { token: owner.token, body: { name: `HTTP ${i}`, active: false } })).body);
    }
    await Promise.all([
      kiln.api('PUT', `${path}/incident_settings`, { token: owner.token, body: { alerting_tool_active: true, alerting_tool_url: 'https://tool.example/alerts' } }),
      ...integrations.map((integration) => kiln.api('PUT', `${path}/integrations/${integration.id}`, { token: owner.token, body: { active: true } })),
    ]);
    const settings = (await kiln.api('GET', `${path}/incident_settings`, { token: owner.token })).body;
    const active = (await kiln.api('GET', `${path}/integrations`, { token: owner.token })).body.filter((integration: any) => integration.active);
    expect(settings.alerting_tool_active && active.length > 0).toBe(false);
  });
});
