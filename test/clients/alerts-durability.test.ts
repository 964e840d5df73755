// "A 200 means the alert is committed" (issue 6): kill -9 the server in the middle of a burst of
// alerts; after a restart on the same data every alert that got a 200 is there.
import { afterAll, describe, expect, it } from 'vitest';
import { apiCall, startKilnProcess, type KilnProcess } from './helpers/server.js';

let kiln: KilnProcess | null = null;
afterAll(async () => kiln?.stop());

describe('kill -9 during a burst of alerts', () => {
  it('loses no alert that was acknowledged with a 200', async () => {
    const first = await startKilnProcess({ dataDir: (await import('node:fs')).mkdtempSync(`${(await import('node:os')).tmpdir()}/kiln-kill9-`) });
    const project = await apiCall(first, 'POST', '/projects', { name: 'burst', path: 'burst' });
    const integration = await apiCall(first, 'POST', `/projects/${project.id}/alert_management/integrations`, { name: 'Burst' });
    const path = new URL(integration.url).pathname;

    const acknowledged: Array<{ iid: number; title: string }> = [];
    let sent = 0;
    let stop = false;
    const sender = async (worker: number) => {
      while (!stop) {
        const title = `burst ${worker}-${sent++}`;
        try {
          const response = await fetch(`${first.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${integration.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ title, fingerprint: title }) });
          if (response.status === 200) acknowledged.push(...((await response.json()) as Array<{ iid: number; title: string }>));
        } catch {
          return; // the server is gone
        }
      }
    };
    const senders = Array.from({ length: 8 }, (_, i) => sender(i));
    while (acknowledged.length < 200) await new Promise((resolve) => setTimeout(resolve, 5));
    await first.kill9();
    stop = true;
    await Promise.all(senders);

    kiln = await startKilnProcess({ dataDir: first.dataDir, rootToken: first.rootToken });
    const stored = new Map<string, number>();
    for (let page = 1; ; page += 1) {
      const rows = await apiCall(kiln, 'GET', `/projects/${project.id}/alert_management_alerts?status=all&per_page=100&page=${page}`);
      for (const row of rows) stored.set(row.title, row.iid);
      if (rows.length < 100) break;
    }
    expect(acknowledged.length).toBeGreaterThanOrEqual(200);
    const missing = acknowledged.filter((alert) => stored.get(alert.title) !== alert.iid);
    expect(missing).toEqual([]);
  });
});
