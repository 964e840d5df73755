// Issue 40's survival goal, on a real `kiln serve` over HTTP: every connection the node holds to
// PostgreSQL terminated (pg_terminate_backend) once a second for BENCH_OUTAGE_SECONDS (60, the goal's
// minute) while clients create issues and read; then the node must still run, every issue it
// acknowledged (201) must be stored, nothing but 2xx or a 503 in GitLab's shape may have been
// answered, and readiness must answer 200 within a second of the last termination.
// test/ops/postgres-outage.test.ts proves the same in-process for five seconds (and a cut network).
import pg from 'pg';
import type { BenchScenario, BenchServer } from '../scenario.js';
import { seedUser } from './foundation.js';
import { createProject } from '../../src/accounts/create-project.js';

const SECONDS = Number(process.env.BENCH_OUTAGE_SECONDS ?? 60);
/** Client loops, each a creation and two reads at a time. */
const CLIENTS = 6;

interface Seeded {
  token: string;
  projectId: number;
}

async function seed(deps: Parameters<NonNullable<BenchScenario['seed']>>[0]): Promise<Record<string, unknown>> {
  const { actor, token } = await seedUser(deps, 'outage');
  const project = await createProject(deps, actor, { name: 'outage', visibility: 'private' });
  return { token, projectId: Number(project.id) } satisfies Seeded;
}

async function survive(server: BenchServer, seededRecord: Record<string, unknown>) {
  const { token, projectId } = seededRecord as unknown as Seeded;
  if (!server.databaseUrl || !server.running) throw new Error('postgres-outage needs the database URL and the server process');
  const database = new URL(server.databaseUrl).pathname.slice(1);
  const admin = new pg.Client({ connectionString: server.databaseUrl });
  await admin.connect();
  const terminateAll = async () =>
    (await admin.query('select count(pg_terminate_backend(pid)) as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database])).rows[0].n as number;
  const headers = { 'private-token': token, 'content-type': 'application/json' };
  const acknowledged: string[] = [];
  const statuses = new Map<number, number>();
  const wrongShape: string[] = [];
  let slowest503 = 0;
  let failed = 0;
  let running = true;
  let n = 0;
  const call = async (path: string, body?: unknown) => {
    const started = performance.now();
    try {
      const response = await fetch(`${server.url}/api/v4${path}`, { method: body ? 'POST' : 'GET', headers, body: body ? JSON.stringify(body) : undefined });
      const text = await response.text();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.status === 503) {
        slowest503 = Math.max(slowest503, performance.now() - started);
        if (text !== '{"message":"503 Service Unavailable"}') wrongShape.push(text.slice(0, 80));
      }
      return response.status;
    } catch {
      failed += 1; // no answer at all: the connection was refused or reset (a crash)
      return 0;
    }
  };
  const client = async () => {
    while (running) {
      const title = `outage issue ${(n += 1)}`;
      const [created] = await Promise.all([call(`/projects/${projectId}/issues`, { title }), call(`/projects/${projectId}`), call(`/projects/${projectId}/issues?per_page=5`)]);
      if (created === 201) acknowledged.push(title);
    }
  };
  const clients = Array.from({ length: CLIENTS }, client);
  let terminated = 0;
  try {
    for (let second = 0; second < SECONDS; second += 1) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      terminated += Number(await terminateAll());
    }
    running = false;
    await Promise.all(clients);
    // The last termination, then how long until the node says it is ready.
    terminated += Number(await terminateAll());
    const started = performance.now();
    let readyMs = Infinity;
    while (performance.now() - started < 5_000) {
      const status = await fetch(`${server.url}/-/readiness`).then((response) => response.status, () => 0);
      if (status === 200) {
        readyMs = performance.now() - started;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const stored = new Set((await admin.query<{ title: string }>('select title from issues where project_id = $1', [projectId])).rows.map((row) => row.title));
    const lost = acknowledged.filter((title) => !stored.has(title)).length;
    const answered = [...statuses.values()].reduce((sum, count) => sum + count, 0);
    const unexpected = [...statuses.entries()].filter(([status]) => ![200, 201, 503].includes(status));
    const alive = server.running();
    const summary = `${SECONDS} s, ${terminated} connections terminated, ${answered} answers (${statuses.get(201) ?? 0} created, ${statuses.get(503) ?? 0} 503, slowest 503 ${slowest503.toFixed(0)} ms)${unexpected.length ? `, unexpected ${unexpected.map(([status, count]) => `${count}× ${status}`).join(', ')}` : ''}${wrongShape.length ? `, ${wrongShape.length} 503s not in GitLab's shape` : ''}${failed ? `, ${failed} requests unanswered` : ''}`;
    return [
      { name: `node alive after ${SECONDS} s of terminations (${summary})`, value: alive ? 1 : 0, unit: 'alive', target: '1 (no crash), only 2xx or 503 in GitLab\'s shape', pass: alive && failed === 0 && unexpected.length === 0 && wrongShape.length === 0 && terminated > SECONDS },
      { name: `acknowledged issues lost (of ${acknowledged.length})`, value: lost, unit: 'issues', target: '0', pass: lost === 0 && acknowledged.length > 0 },
      { name: 'readiness 200 after the last termination', value: Math.round(readyMs), unit: 'ms', target: '< 1000 ms', pass: readyMs < 1000 },
    ];
  } finally {
    running = false;
    await Promise.all(clients);
    await admin.end();
  }
}

export const scenario: BenchScenario = {
  name: 'postgres-outage',
  database: 'postgres',
  seed,
  async targets() {
    return [];
  },
  custom: survive,
};

export default scenario;
