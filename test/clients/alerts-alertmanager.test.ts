// A real sender: Debian's Prometheus Alertmanager delivers a firing and then a resolved alert to a
// Kiln integration through its webhook receiver (docs/clients.md), which ends as one resolved alert.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, startKilnProcess, type KilnProcess } from './helpers/server.js';
import { startAlertmanager, type AlertmanagerProcess } from '../../bench/scenarios/alerts.js';

let kiln: KilnProcess;
let alertmanager: AlertmanagerProcess;
let project: any;

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${alertmanager?.output() ?? ''}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  kiln = await startKilnProcess();
  project = await apiCall(kiln, 'POST', '/projects', { name: 'shop', path: 'shop' });
  const integration = await apiCall(kiln, 'POST', `/projects/${project.id}/alert_management/integrations`, { name: 'Alertmanager' });
  // The integration URL as shown to users, but on the port this test server listens on.
  const url = `${kiln.url}${new URL(integration.url).pathname}`;
  alertmanager = await startAlertmanager({ url, key: integration.token });
});
afterAll(async () => {
  await alertmanager?.stop();
  await kiln?.stop();
});

describe('Prometheus Alertmanager 0.25 webhook → Kiln', () => {
  it('delivers a firing alert, then its resolution, ending with one resolved alert', async () => {
    const startsAt = new Date(Date.now() - 60_000).toISOString();
    const alert = {
      labels: { alertname: 'HighLatency', severity: 'critical', service: 'api', instance: 'web-1' },
      annotations: { summary: 'p99 latency above 2s', description: 'The API p99 latency has been above 2s for 5 minutes' },
      generatorURL: 'http://prometheus.example:9090/graph?g0.expr=latency',
      startsAt,
    };
    const fire = await fetch(`${alertmanager.url}/api/v2/alerts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify([alert]) });
    expect(fire.status).toBe(200);

    const firing = await until('the firing alert', async () => {
      const alerts = await apiCall(kiln, 'GET', `/projects/${project.id}/alert_management_alerts?status=all`);
      return alerts.length > 0 ? alerts : undefined;
    });
    expect(firing).toHaveLength(1);
    expect(firing[0]).toMatchObject({ title: 'p99 latency above 2s', status: 'triggered', severity: 'critical', monitoring_tool: 'Prometheus', started_at: startsAt });

    const resolve = await fetch(`${alertmanager.url}/api/v2/alerts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ ...alert, endsAt: new Date(Date.now() - 1000).toISOString() }]),
    });
    expect(resolve.status).toBe(200);

    const resolved = await until('the resolution', async () => {
      const alerts = await apiCall(kiln, 'GET', `/projects/${project.id}/alert_management_alerts?status=all`);
      return alerts.every((a: any) => a.status === 'resolved') ? alerts : undefined;
    });
    expect(resolved).toHaveLength(1);
    expect(resolved[0]).toMatchObject({ iid: firing[0].iid, status: 'resolved', ended_at: expect.any(String) });
    const notes = await apiCall(kiln, 'GET', `/projects/${project.id}/alert_management_alerts/${firing[0].iid}/notes`);
    expect(notes.map((n: any) => n.body)).toContain('logged a recovery alert from **Alertmanager**');
  });
});
