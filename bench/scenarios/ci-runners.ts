// `npm run bench -- ci-runners` (issue 39, "How it is shown"): the runner protocol under many runners,
// over loopback, with runners that send what GitLab Runner sends (bench/runner-load.ts).
//
// - 50 idle runners, each with its own token, long-polling `POST /jobs/request` with the
//   `last_update` of their previous 204 and no job queued: the server's CPU time (/proc, its
//   utime + stime) over 60 s, as a share of one core, less the same server's share over 10 s with no
//   runner, the lower of just before and just after (its own idle work is not the runners' cost; all
//   are reported). The long poll is cut to 10 s here (Kiln's default is 50 s, as Workhorse's) and a runner
//   asks again at once after a 204 (GitLab Runner waits check_interval, 3 s): five times as many
//   polls end as in a default setup, so the cost of a poll ending shows.
// - 1,000 queued jobs (ten pipelines of 100 jobs, made through the API from one .gitlab-ci.yml)
//   handed to 10 runners asking at once, each asking again as soon as it is answered, until all are
//   told 204: jobs per second from the first request to the last answer; every job handed exactly
//   once (no id twice, 1,000 in all, none left pending).
// - A 5 MB job log printed evenly over 8 s and sent as a runner sends it, what is new once a second
//   (GitLab Runner sends every 3 s while the job's page is watched: once a second is harsher), while
//   five viewers poll the job page's log fragment every 2 s (as its htmx does, with the log's state
//   from the last answer) and the raw log is read every second: the p99 of ordinary requests (a
//   project, a page of its issues, 100 a second from 4 clients) against the same requests with no log
//   traffic just before, in the same run (the goal). Then the same with a flood instead, 5 MB logs
//   appended back to back in 128 KiB chunks (tens of MB a second, the server saturated): reported,
//   with whether it stayed within the goal. BENCH_CI_LOG_VIEWERS sets how many viewers; the log traffic
//   runs on a thread of its own (bench/log-traffic.ts); the server's event-loop delay (its /-/metrics)
//   is reported beside each.
import type { BenchScenario, BenchServer } from '../scenario.js';
import type { Deps } from '../../src/platform/deps.js';
import type { Principal } from '../../src/platform/auth/principal.js';
import { toAuthUser } from '../../src/accounts/user-entities.js';
import { createProject } from '../../src/accounts/create-project.js';
import { createRunner } from '../../src/ci/runners/register-runner.js';
import { insertIssues } from '../seed-issues.js';
import { BenchRunner, drainQueue, pollIdle, type HandedJob } from '../runner-load.js';
import { runLogTraffic } from '../log-traffic.js';

const IDLE_RUNNERS = 50;
const DRAIN_RUNNERS = 10;
const PIPELINES = 10;
const JOBS_PER_PIPELINE = 100;
const JOBS = PIPELINES * JOBS_PER_PIPELINE;
const LONG_POLL_MS = 10_000;
const QUIET_S = 10;
const POLLING_S = Number(process.env.BENCH_CI_POLLING_S ?? 60);
const LOG_BYTES = 5 * 1024 * 1024;
const LOG_CHUNK = 128 * 1024;
const LOG_PHASE_S = 8;
/** The paced log: what is new sent once a second, at most 4 MiB a request (the server's limit). */
const PACED_EVERY_MS = 1000;
const TRACE_PATCH_MOST = 4 * 1024 * 1024;
/** BENCH_CI_LOG_VIEWERS: viewers of the job page during the log phase (0 to measure the appends alone). */
const VIEWERS = Number(process.env.BENCH_CI_LOG_VIEWERS ?? 5);
/** The ordinary requests: 4 clients, each one request every 40 ms (100 a second in all). */
const CLIENTS = 4;
const CLIENT_EVERY_MS = 40;
/** BENCH_CI_PARTS=idle,queue,log: the parts to run (e.g. one alone under BENCH_CPU_PROF_DIR); the log part needs the queue's jobs. */
const PARTS = new Set((process.env.BENCH_CI_PARTS ?? 'idle,queue,log').split(','));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

async function api(server: BenchServer, method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown; total: number | null }> {
  const response = await fetch(`${server.url}/api/v4${path}`, {
    method,
    headers: { 'private-token': server.rootToken, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  const total = response.headers.get('x-total');
  return { status: response.status, json: text ? (JSON.parse(text) as unknown) : null, total: total === null ? null : Number(total) };
}

async function seedCi(deps: Deps): Promise<Record<string, unknown>> {
  const rootRow = await deps.db.selectFrom('users').selectAll().where('username_lower', '=', 'root').executeTakeFirstOrThrow();
  const root: Principal = { user: toAuthUser(rootRow), scopes: ['api'], via: 'personal_access_token', tokenId: null };
  const project = await createProject(deps, root, { name: 'ci-bench', visibility: 'public' });
  await insertIssues(deps, { projectIds: [Number(project.id)], count: 50, authorIds: [root.user.id], title: (n) => `Issue ${n}: the build is red` });
  const tokens: string[] = [];
  for (let i = 0; i < IDLE_RUNNERS + DRAIN_RUNNERS; i += 1) {
    tokens.push((await createRunner(deps, { runnerType: 'instance_type' }, { description: `bench runner ${i}` }, { creatorId: root.user.id, registration: 'authenticated_user' })).token);
  }
  return { projectId: Number(project.id), projectPath: `${rootRow.username}/${project.path}`, tokens };
}

/** The server's CPU over `seconds`, as a percentage of one core (/proc's 10 ms ticks). */
async function cpuShare(server: BenchServer, seconds: number): Promise<number> {
  const before = server.cpuMs?.();
  const started = Date.now();
  await sleep(seconds * 1000);
  const after = server.cpuMs?.();
  if (before === null || before === undefined || after === null || after === undefined) throw new Error('the server CPU time is not readable (/proc)');
  return ((after - before) / (Date.now() - started)) * 100;
}

/**
 * The server's event-loop delay since the last scrape (prom-client resets its histogram on each
 * collection): p99 and max in ms. What a request waits behind, measured in the server, apart from the
 * load generator's own event loop.
 */
async function loopDelay(server: BenchServer): Promise<{ p99: number; max: number } | null> {
  const response = await fetch(`${server.url}/-/metrics`);
  if (response.status !== 200) return null;
  const text = await response.text();
  const value = (name: string) => Number(new RegExp(`^${name} ([0-9.e+-]+)`, 'm').exec(text)?.[1] ?? Number.NaN) * 1000;
  return { p99: value('nodejs_eventloop_lag_p99_seconds'), max: value('nodejs_eventloop_lag_max_seconds') };
}

/** Ordinary API requests at a steady pace until `until` resolves: their latencies in ms. */
async function ordinaryLoad(server: BenchServer, projectId: number, until: Promise<unknown>): Promise<{ latencies: number[]; failures: number }> {
  let done = false;
  void until.finally(() => (done = true));
  const latencies: number[] = [];
  let failures = 0;
  const paths = [`/api/v4/projects/${projectId}`, `/api/v4/projects/${projectId}/issues?per_page=20`];
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      await sleep((client * CLIENT_EVERY_MS) / CLIENTS);
      for (let n = client; !done; n += 1) {
        const started = performance.now();
        const response = await fetch(`${server.url}${paths[n % paths.length]}`, { headers: { 'private-token': server.rootToken } });
        await response.arrayBuffer();
        const ms = performance.now() - started;
        if (response.status === 200) latencies.push(ms);
        else failures += 1;
        await sleep(Math.max(0, CLIENT_EVERY_MS - ms));
      }
    }),
  );
  return { latencies, failures };
}

/** Ten pipelines of 100 jobs on main (the push of the .gitlab-ci.yml makes the first): the pending count. */
async function queueJobs(server: BenchServer, projectId: number): Promise<number> {
  const config = Array.from({ length: JOBS_PER_PIPELINE }, (_, i) => `job-${i}:\n  script: echo ${i}\n`).join('');
  const committed = await api(server, 'POST', `/projects/${projectId}/repository/commits`, { branch: 'main', commit_message: 'CI', actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: config }] });
  if (committed.status !== 201) throw new Error(`the commit answered ${committed.status}`);
  // The push's pipeline is made by a background job: wait for it, so that it is not made during the run.
  const deadline = Date.now() + 20_000;
  let pipelines = 0;
  while (Date.now() < deadline && (pipelines = (await api(server, 'GET', `/projects/${projectId}/pipelines?per_page=1`)).total ?? 0) < 1) await sleep(100);
  for (let i = pipelines; i < PIPELINES; i += 1) {
    const created = await api(server, 'POST', `/projects/${projectId}/pipeline?ref=main`);
    if (created.status !== 201) throw new Error(`POST /pipeline answered ${created.status}`);
  }
  return (await api(server, 'GET', `/projects/${projectId}/jobs?scope=pending&per_page=1`)).total ?? 0;
}

type Row = { name: string; value: number; unit: string; baseline?: number; target: string; pass: boolean };

/**
 * 50 idle runners long-polling: the server's CPU as a share of one core, beside its CPU with no runner.
 * A major collection of the server's heap (~60 MB live after start) is ~200 ms on one core, and the
 * background worker's first runs take as long: one of them in a 25 s window moved the share by ~1 % of a
 * core from run to run. So the runners are measured over a minute, and the process with no runner
 * before and after them, the lower of the two counting (what a one-off in a quiet window would hide).
 */
async function idleRunners(server: BenchServer, tokens: string[]): Promise<Row> {
  // After the server's start has settled (its worker threads load after it first answers).
  await sleep(3000);
  const quietBefore = await cpuShare(server, QUIET_S);
  const polling = pollIdle(tokens.map((token) => new BenchRunner(server.url, token)));
  await sleep(2000);
  const pollsBefore = polling.polls();
  const busy = await cpuShare(server, POLLING_S);
  const polls = polling.polls() - pollsBefore;
  await polling.stop();
  await sleep(2000);
  const quietAfter = await cpuShare(server, QUIET_S);
  // The runners' cost is what the server spends above its own idle work (the background worker's
  // polls, timers): the same process, measured just before and just after, with no runner connected.
  const quiet = Math.min(quietBefore, quietAfter);
  const cost = busy - quiet;
  return {
    name: `${tokens.length} idle runners long-polling jobs/request (own tokens, last_update; ${LONG_POLL_MS / 1000} s long poll, no pause between polls; ${polls} polls ended in ${POLLING_S} s): server CPU ${round(busy, 2)} % with them, ${round(quietBefore, 2)} % and ${round(quietAfter, 2)} % with no runner before and after`,
    value: round(cost, 2),
    unit: '% of one core',
    target: '<2 % of one core above no runner',
    pass: cost < 2,
  };
}

/** 1,000 queued jobs drained by 10 runners asking at once: jobs per second, each job handed once. */
async function handOut(server: BenchServer, projectId: number, tokens: string[]): Promise<{ row: Row; handed: HandedJob[] }> {
  const pending = await queueJobs(server, projectId);
  const runners = tokens.map((token) => new BenchRunner(server.url, token));
  const cpuBefore = server.cpuMs?.() ?? null;
  const started = performance.now();
  const handed = await drainQueue(runners);
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = server.cpuMs?.() ?? null;
  const unique = new Set(handed.map((job) => job.id)).size;
  const left = (await api(server, 'GET', `/projects/${projectId}/jobs?scope=pending&per_page=1`)).total;
  const perSecond = handed.length / seconds;
  const cpuPerJob = cpuBefore === null || cpuAfter === null || handed.length === 0 ? '' : `, server CPU ${round((cpuAfter - cpuBefore) / handed.length, 2)} ms a job`;
  return {
    handed,
    row: {
      name: `${JOBS.toLocaleString('en-US')} queued jobs handed to ${tokens.length} runners asking at once (${pending} pending before, ${handed.length} handed, ${unique} distinct, ${left} left; ${round(seconds, 2)} s${cpuPerJob})`,
      value: Math.round(perSecond),
      unit: 'jobs/s',
      target: '≥200 jobs/s, each job once',
      pass: perSecond >= 200 && pending === JOBS && handed.length === JOBS && unique === JOBS && left === 0,
    },
  };
}

/**
 * The p99 of ordinary requests while job logs are written and viewed, against the same with no log
 * traffic just before. `paced`: one 5 MB log printed evenly over the phase and sent every second (the
 * issue's "a 5 MB job log streams to the page"; GitLab Runner sends every 3 s while the page is
 * watched, so once a second is harsher): the goal. The flood (5 MB logs back to back in 128 KiB
 * chunks, tens of MB a second): a diagnostic of the server saturated by log traffic, reported.
 */
async function logStream(server: BenchServer, seeded: Record<string, unknown>, jobs: HandedJob[], paced: boolean): Promise<Row> {
  const projectId = seeded.projectId as number;
  await loopDelay(server);
  const quietLoad = await ordinaryLoad(server, projectId, sleep(LOG_PHASE_S * 1000));
  const quietDelay = await loopDelay(server);
  const cpuBefore = server.cpuMs?.() ?? null;
  const started = performance.now();
  // The log traffic runs on a thread of its own: 5 MB logs going out and pages coming back would
  // otherwise hold the event loop that times the ordinary requests, and their latencies would be the
  // load generator's as much as the server's.
  const logTraffic = runLogTraffic({ url: server.url, projectPath: seeded.projectPath as string, jobs, seconds: LOG_PHASE_S, viewers: VIEWERS, logBytes: LOG_BYTES, chunkBytes: paced ? TRACE_PATCH_MOST : LOG_CHUNK, ...(paced ? { pacedEveryMs: PACED_EVERY_MS } : {}) });
  const [loaded, traffic] = await Promise.all([ordinaryLoad(server, projectId, logTraffic), logTraffic]);
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = server.cpuMs?.() ?? null;
  const loadedDelay = await loopDelay(server);
  const delays = quietDelay && loadedDelay ? `; server event-loop delay p99/max ${round(loadedDelay.p99)}/${round(loadedDelay.max)} ms (quiet ${round(quietDelay.p99)}/${round(quietDelay.max)})` : '';
  const { logs, views, raws } = traffic;
  // The server's CPU for the log traffic (appends, views, raw reads and the ordinary requests), per MB
  // of log: what a loaded machine's latencies hide.
  const cpuPerMb = cpuBefore === null || cpuAfter === null ? '' : `; server CPU ${Math.round((cpuAfter - cpuBefore) / ((logs * LOG_BYTES) / 1048576))} ms per MB of log`;
  const quietP99 = percentile(quietLoad.latencies, 99);
  const loadedP99 = percentile(loaded.latencies, 99);
  const written = paced
    ? `a 5 MB log is printed over ${LOG_PHASE_S} s and sent every ${PACED_EVERY_MS / 1000} s (${logs} whole)`
    : `${logs} × 5 MB logs are appended back to back in 128 KiB chunks (${round((logs * LOG_BYTES) / 1048576 / seconds, 2)} MB/s; a flood, reported)`;
  const met = loaded.failures === 0 && quietLoad.failures === 0 && loadedP99 <= 3 * quietP99 && loadedP99 < 50;
  return {
    name: `p99 of GET a project / its issues (${(CLIENTS * 1000) / CLIENT_EVERY_MS} req/s) while ${written} and viewed by ${VIEWERS} (page/fragment p50 ${round(percentile(views, 50))} ms, max ${round(Math.max(...views))} ms; raw log p50 ${round(percentile(raws, 50))} ms), against no log traffic (p99 ${round(quietP99)} ms)${cpuPerMb}${delays}`,
    value: round(loadedP99),
    unit: 'ms',
    baseline: round(quietP99),
    target: paced ? 'p99 ≤3× quiet and <50 ms' : `reported (${met ? 'within' : 'over'} p99 ≤3× quiet and <50 ms)`,
    pass: paced ? met && logs === 1 : loaded.failures === 0 && quietLoad.failures === 0,
  };
}

export function ciRunnersScenario(name: string, database: 'sqlite' | 'postgres'): BenchScenario {
  return {
    name,
    database,
    env: () => ({ KILN_CI_LONG_POLL_MS: String(LONG_POLL_MS) }),
    seed: seedCi,
    async targets() {
      return [];
    },
    async custom(server, seeded) {
      const tokens = seeded.tokens as string[];
      const rows: Row[] = [];
      if (PARTS.has('idle')) rows.push(await idleRunners(server, tokens.slice(0, IDLE_RUNNERS)));
      if (!PARTS.has('queue')) return rows;
      const { row, handed } = await handOut(server, seeded.projectId as number, tokens.slice(IDLE_RUNNERS));
      rows.push(row);
      if (PARTS.has('log')) {
        // The paced log takes the last handed job; the flood the others, from the first.
        rows.push(await logStream(server, seeded, handed.slice(-1), true));
        rows.push(await logStream(server, seeded, handed.slice(0, -1), false));
      }
      return rows;
    },
  };
}

export const scenario = ciRunnersScenario('ci-runners', 'sqlite');

export default scenario;
