// `npm run bench` for alert ingestion (issue 6): alerts with 200 distinct fingerprints posted to a
// Kiln integration, and the same alerts posted to Prometheus Alertmanager's own POST /api/v2/alerts
// on loopback, in the same run. Alertmanager is Debian's, clustering off, loopback only.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';

export const ALERTMANAGER = process.env.KILN_ALERTMANAGER ?? '/usr/bin/prometheus-alertmanager';

export interface AlertmanagerProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Start Alertmanager on loopback with a webhook receiver (when given) pointing at a Kiln integration. */
export async function startAlertmanager(webhook?: { url: string; key: string }): Promise<AlertmanagerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'kiln-am-'));
  const port = await freePort();
  const receiver = webhook
    ? `    webhook_configs:
      - url: '${webhook.url}'
        send_resolved: true
        max_alerts: 0
        http_config:
          authorization:
            type: Bearer
            credentials: '${webhook.key}'`
    : '';
  writeFileSync(
    join(dir, 'am.yml'),
    `global:
  resolve_timeout: 5s
route:
  receiver: kiln
  group_by: ['alertname']
  group_wait: 1s
  group_interval: 2s
  repeat_interval: 1h
receivers:
  - name: kiln
${receiver}
`,
  );
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(ALERTMANAGER, [
    `--config.file=${join(dir, 'am.yml')}`,
    `--storage.path=${join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    `--web.external-url=${url}`,
    '--cluster.listen-address=',
    '--log.level=warn',
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`alertmanager exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(`${url}/-/ready`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`alertmanager did not become ready:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
