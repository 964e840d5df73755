// The operator's guide, followed: two nodes on one PostgreSQL (docs/operations/several-nodes.md)
// behind a round-robin load balancer with forwarded headers (reverse-proxy.md), and a real Prometheus
// Alertmanager configured with the receiver of docs/operations/alerts.md, whose alerts reach Kiln
// through the balancer. Runs only when KILN_TEST_DATABASE_URL names a PostgreSQL server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiCall, freePort, startKilnProcess, type KilnProcess } from './helpers/server.js';
import { freshPostgres, type FreshPostgres } from './helpers/fresh-postgres.js';
import { runKiln } from '../platform/process-helpers.js';

const adminUrl = process.env.KILN_TEST_DATABASE_URL;
const ALERTMANAGER = '/usr/bin/prometheus-alertmanager';
const GUIDE = new URL('../../docs/operations/alerts.md', import.meta.url);

/** The guide's alertmanager.yml, with this test's URL and key, and short waits. */
function guideReceiver(url: string, key: string): string {
  const guide = readFileSync(GUIDE, 'utf8');
  const yaml = [...guide.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1]).find((block) => block.includes('webhook_configs'));
  if (!yaml) throw new Error('docs/operations/alerts.md has no Alertmanager receiver');
  const exampleUrl = /url: '([^']+)'/.exec(yaml)![1];
  const exampleKey = /credentials: '([^']+)'/.exec(yaml)![1];
  return yaml.replace(exampleUrl, url).replace(exampleKey, key).replace(/group_wait: \S+/, 'group_wait: 1s').replace(/group_interval: \S+/, 'group_interval: 2s');
}

/** A load balancer as the guide describes one: round robin over the nodes, X-Forwarded-For added. */
function roundRobin(ports: number[]): Server {
  let next = 0;
  return createServer((incoming, outgoing) => {
    const port = ports[next++ % ports.length];
    const headers = { ...incoming.headers, 'x-forwarded-for': incoming.socket.remoteAddress ?? '127.0.0.1' };
    const upstream = httpRequest({ host: '127.0.0.1', port, method: incoming.method, path: incoming.url, headers }, (response) => {
      outgoing.writeHead(response.statusCode ?? 502, response.headers);
      response.pipe(outgoing);
    });
    upstream.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(upstream);
  });
}

describe.skipIf(!adminUrl || !existsSync(ALERTMANAGER))('two nodes on PostgreSQL following docs/operations/', () => {
  let database: FreshPostgres | null = null;
  const work = mkdtempSync(join(tmpdir(), 'kiln-ops-'));
  const nodes: KilnProcess[] = [];
  let balancer: Server;
  let baseUrl = '';
  let alertmanager: ChildProcess | null = null;
  let env: Record<string, string> = {};

  beforeAll(async () => {
    database = await freshPostgres('ops');
    const balancerPort = await freePort();
    baseUrl = `http://127.0.0.1:${balancerPort}`;
    // several-nodes.md: the same database, base URL, shards; the balancer's address trusted.
    env = {
      KILN_DATABASE_URL: database!.url,
      KILN_BASE_URL: baseUrl,
      KILN_STORAGES: JSON.stringify({ default: { path: join(work, 'shared', 'repositories', 'default') } }),
      KILN_TRUSTED_PROXIES: '127.0.0.1,::1',
    };
  }, 60_000);
  afterAll(async () => {
    alertmanager?.kill('SIGTERM');
    await Promise.all(nodes.map((node) => node.stop()));
    await new Promise<void>((resolve) => (balancer ? balancer.close(() => resolve()) : resolve()));
    await database?.drop();
    rmSync(work, { recursive: true, force: true });
  });

  it('the second node refuses to start without the first node\'s secrets.json, and starts with a copy', { timeout: 90_000 }, async () => {
    const first = await startKilnProcess({ dataDir: join(work, 'node-1'), env });
    nodes.push(first);
    const secondDir = join(work, 'node-2');
    const refused = await runKiln(['serve'], { ...env, KILN_DATA_DIR: secondDir, KILN_PORT: String(await freePort()) });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${join(secondDir, 'secrets.json')} is missing, and this database was initialised with a secrets file`);
    expect(existsSync(join(secondDir, 'secrets.json'))).toBe(false);
    // "copy its <data>/secrets.json (mode 0600) into every other node's data dir"
    copyFileSync(join(work, 'node-1', 'secrets.json'), join(secondDir, 'secrets.json'));
    chmodSync(join(secondDir, 'secrets.json'), 0o600);
    const second = await startKilnProcess({ dataDir: secondDir, env, rootToken: first.rootToken });
    nodes.push(second);
    expect(statSync(join(secondDir, 'secrets.json')).mode & 0o777).toBe(0o600);
    balancer = roundRobin(nodes.map((node) => node.port));
    await new Promise<void>((resolve) => balancer.listen(Number(new URL(baseUrl).port), '127.0.0.1', resolve));
    const keys = await Promise.all(nodes.map(async (node) => (await fetch(`${node.url}/oauth/discovery/keys`)).json()));
    expect(keys[0]).toEqual(keys[1]);
  });

  it('Alertmanager configured from the guide delivers a firing and a resolved alert through the balancer', { timeout: 90_000 }, async () => {
    const [first] = nodes;
    const project = await apiCall(first, 'POST', '/projects', { name: 'shop', path: 'shop' });
    const integration = await apiCall(first, 'POST', `/projects/${project.id}/alert_management/integrations`, { name: 'Alertmanager' });
    // The URL as the integration shows it: the balancer's (KILN_BASE_URL).
    expect(integration.url.startsWith(`${baseUrl}/root/shop/alerts/notify/`)).toBe(true);
    const amPort = await freePort();
    writeFileSync(join(work, 'alertmanager.yml'), guideReceiver(integration.url, integration.token));
    alertmanager = spawn(ALERTMANAGER, [
      `--config.file=${join(work, 'alertmanager.yml')}`,
      `--storage.path=${join(work, 'am-data')}`,
      `--web.listen-address=127.0.0.1:${amPort}`,
      '--cluster.listen-address=',
      '--log.level=warn',
    ], { stdio: ['ignore', 'pipe', 'pipe'] });
    let amOutput = '';
    alertmanager.stdout?.on('data', (chunk) => (amOutput += chunk));
    alertmanager.stderr?.on('data', (chunk) => (amOutput += chunk));
    const amUrl = `http://127.0.0.1:${amPort}`;
    const until = async <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => {
      const deadline = Date.now() + 40_000;
      for (;;) {
        const value = await probe().catch(() => undefined);
        if (value !== undefined) return value;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${amOutput}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    };
    await until('Alertmanager', async () => ((await fetch(`${amUrl}/-/ready`)).ok ? true : undefined));

    const startsAt = new Date(Date.now() - 60_000).toISOString();
    const alert = { labels: { alertname: 'DiskFull', severity: 'warning', instance: 'db-1' }, annotations: { summary: 'Disk almost full on db-1' }, startsAt };
    expect((await fetch(`${amUrl}/api/v2/alerts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify([alert]) })).status).toBe(200);
    const firing = await until('the firing alert in Kiln', async () => {
      const alerts = await apiCall(nodes[1], 'GET', `/projects/${project.id}/alert_management_alerts`);
      return alerts.length ? alerts : undefined;
    });
    expect(firing).toMatchObject([{ title: 'Disk almost full on db-1', severity: 'low', status: 'triggered', monitoring_tool: 'Prometheus' }]);

    const resolve = { ...alert, endsAt: new Date().toISOString() };
    expect((await fetch(`${amUrl}/api/v2/alerts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify([resolve]) })).status).toBe(200);
    await until('the alert resolved in Kiln', async () => {
      const alerts = await apiCall(nodes[0], 'GET', `/projects/${project.id}/alert_management_alerts`);
      return alerts[0]?.status === 'resolved' ? alerts : undefined;
    });
    // Both nodes served the deliveries: the balancer alternated.
    const served = await Promise.all(nodes.map(async (node) => (await fetch(`${node.url}/-/metrics`)).text()));
    for (const metrics of served) expect(metrics).toMatch(/kiln_alerts_ingested_total\{outcome="accepted"\} [1-9]/);
  });
});
