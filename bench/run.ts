// `npm run bench [-- <scenario> …]`: for every scenario in bench/scenarios, seed a fresh SQLite data
// dir in-process, start `kiln serve` and a bare node:http baseline as child processes, load both with
// autocannon over loopback (bounded: a warm-up, then two rounds of Kiln / serialising baseline /
// pre-serialised baseline, alternated so that load from elsewhere on the machine falls on all three),
// print a table and write it into docs/performance.md. Method and caveats: docs/performance.md.
// Scenarios with `database: 'postgres'` run on a fresh database made in BENCH_POSTGRES_URL's server.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { startKiln } from '../src/bootstrap.js';
import { gcShare, type BenchScenario, type BenchServer, type BenchTarget } from './scenario.js';
import { measureMix } from './mix.js';
import { databaseCpuMicros } from './database-cpu.js';

const HERE = fileURLToPath(new URL('.', import.meta.url)); // dist/bench/
const ROOT = join(HERE, '..', '..');
/** Servers start as an operator starts them: `kiln serve` through bin/kiln, which picks Node's flags for the cores it may use. */
const KILN_SERVE = [join(ROOT, 'bin', 'kiln'), 'serve'];
const BASELINE = join(HERE, 'baseline.js');
const QUERY_COUNTER = join(HERE, 'query-counter.js');
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
// BENCH_REPORT=- leaves docs/performance.md alone (trial runs with short durations).
const REPORT = process.env.BENCH_REPORT ?? join(ROOT, 'docs', 'performance.md');

const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 3);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
/** BENCH_CPU_PROF_DIR=dir writes a V8 CPU profile of each scenario's server there when it stops (bench/cpu-profile.ts). */
const PROFILE = process.env.BENCH_CPU_PROF_DIR ? [`--import="${pathToFileURL(join(HERE, 'cpu-profile.js')).href}"`] : [];

export interface Row {
  scenario: string;
  name: string;
  rps: number | null;
  p50: number | null;
  p99: number | null;
  baselineRps: number | null;
  ratio: number | null;
  /** The pre-serialised baseline: the same bytes Kiln answered, sent as they are. */
  preBaselineRps?: number | null;
  preRatio?: number | null;
  /** Statements (and, on PostgreSQL, round trips) per request, counted in a pass after the measured rounds; the server's CPU per response in those rounds. */
  perRequest?: { statements: number; roundTrips: number; cpuMicros: number } | null;
  value?: string;
  target: string;
  pass: boolean;
  note: string;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Server children on core 0, the load generator (this process) on core 1, so the two do not compete for a core (docs/performance.md). */
const PIN = existsSync('/usr/bin/taskset') && cpus().length >= 2;
function pinSelf(): void {
  if (!PIN) return;
  try {
    execFileSync('taskset', ['-a', '-pc', '1', String(process.pid)], { stdio: 'ignore' });
  } catch {
    /* not allowed here: run unpinned */
  }
}

/**
 * CPU time of process `pid` and of its children it has waited for (its git processes), in ms, from
 * /proc (utime + stime + cutime + cstime, in clock ticks of 10 ms); null where there is no /proc.
 */
function processCpuMs(pid: number | undefined): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return null;
  }
}

/** A command (`kiln serve`, or Node on a baseline) on `core`: 0 unless it is a scenario's second node. */
function spawnPinned(command: string[], env: Record<string, string>, core = 0): ChildProcess {
  const [file, ...args] = PIN ? ['taskset', '-c', String(core), ...command] : command;
  return spawn(file, args, { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

async function waitForHttp(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited ${child.exitCode}\n${output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not come up\n${output()}`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

async function startChild(command: string[], env: Record<string, string>, readyUrl: string, core = 0) {
  const child = spawnPinned(command, env, core);
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  await waitForHttp(readyUrl, child, () => output);
  return child;
}

interface Load {
  rps: number;
  /** Responses received (the denominator of the server's CPU per request). */
  requests: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function load(url: string, target: Pick<BenchTarget, 'method' | 'headers' | 'body' | 'connections'>, seconds: number): Promise<Load> {
  const makeBody = typeof target.body === 'function' ? target.body : null;
  const result = await autocannon({
    url,
    method: target.method,
    headers: target.headers,
    body: typeof target.body === 'string' ? target.body : undefined,
    connections: target.connections ?? 10,
    duration: seconds,
    ...(makeBody ? { requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, body: makeBody() }) }] } : {}),
  });
  return { rps: result.requests.average, requests: result.requests.total, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors + result.timeouts };
}

function judge(target: BenchTarget, rps: number, p99: number, ratio: number, preRatio: number): { pass: boolean; text: string } {
  const parts: string[] = [];
  let pass = true;
  if (target.targets.minRatio !== undefined) {
    parts.push(`≥${target.targets.minRatio}× baseline`);
    pass &&= ratio >= target.targets.minRatio;
  }
  if (target.targets.minPreRatio !== undefined) {
    parts.push(`≥${target.targets.minPreRatio}× pre-serialised`);
    pass &&= preRatio >= target.targets.minPreRatio;
  }
  if (target.targets.maxP99Ms !== undefined) {
    parts.push(`p99 <${target.targets.maxP99Ms} ms`);
    pass &&= p99 < target.targets.maxP99Ms;
  }
  if (target.targets.minRequestsPerSecond !== undefined) {
    parts.push(`≥${target.targets.minRequestsPerSecond} req/s`);
    pass &&= rps >= target.targets.minRequestsPerSecond;
  }
  // No goal: a diagnostic (the one-URL reads, docs/decisions.md), failed only by errors.
  return { pass, text: parts.join(', ') || 'reported' };
}

async function loadScenarios(only: string[]): Promise<BenchScenario[]> {
  const folder = join(HERE, 'scenarios');
  const files = existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('.js')).sort() : [];
  const scenarios: BenchScenario[] = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(join(folder, file)).href)) as { default?: BenchScenario; scenario?: BenchScenario };
    const scenario = module.default ?? module.scenario;
    if (!scenario) {
      process.stderr.write(`bench: ${file} exports no scenario (default export or "scenario"), skipped\n`);
      continue;
    }
    if (only.length === 0 || only.includes(scenario.name) || only.includes(file.replace(/\.js$/, ''))) scenarios.push(scenario);
  }
  return scenarios;
}

/** A fresh database on the PostgreSQL server of BENCH_POSTGRES_URL, dropped by `drop`. */
async function freshPostgres(name: string): Promise<{ url: string; drop(): Promise<void> }> {
  const database = `kiln_bench_${name.replace(/\W/g, '_')}_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${database}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${database}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${database} with (force)`) };
}

/** What bench/query-counter.ts counts in the server; the times in µs since it started. */
interface ServerCounts {
  statements: number;
  roundTrips: number;
  requests: number;
  cpuMicros: number;
  gcMicros: number;
  gitProcesses: number;
}

/** The server's statement, round-trip and request counts (bench/query-counter.ts), via SIGUSR2. */
async function readCounts(child: ChildProcess, file: string): Promise<ServerCounts | null> {
  const before = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { seq: number }).seq : 0;
  child.kill('SIGUSR2');
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (!existsSync(file)) continue;
    try {
      const counts = JSON.parse(readFileSync(file, 'utf8')) as ServerCounts & { seq: number };
      if (counts.seq > before) return counts;
    } catch {
      /* being written */
    }
  }
  return null;
}

/**
 * The statements and round trips per request of `run`, in a counting pass of its own: the counting
 * wrappers are on only during the pass (bench/query-counter.ts), never during the measured rounds.
 * Under a write stream only the GET requests and their statements count.
 */
async function countingPass(child: ChildProcess, file: string, run: () => Promise<unknown>): Promise<{ statements: number; roundTrips: number; requests: number } | null> {
  child.kill('SIGWINCH');
  try {
    const before = await readCounts(child, file);
    await run();
    const after = await readCounts(child, file);
    if (!before || !after || after.requests === before.requests) return null;
    return { statements: after.statements - before.statements, roundTrips: after.roundTrips - before.roundTrips, requests: after.requests - before.requests };
  } finally {
    child.kill('SIGWINCH');
  }
}

/** Headers of Kiln's answer that the pre-serialised baseline repeats (not the per-connection ones). */
function fixedHeaders(response: Response): Record<string, string> {
  const skip = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!skip.has(name)) headers[name] = value;
  });
  return headers;
}

function mean(runs: Load[]): Load {
  const avg = (pick: (run: Load) => number) => runs.reduce((sum, run) => sum + pick(run), 0) / runs.length;
  return { rps: avg((run) => run.rps), requests: avg((run) => run.requests) * runs.length, p50: avg((run) => run.p50), p99: Math.max(...runs.map((run) => run.p99)), non2xx: avg((run) => run.non2xx) * runs.length, errors: avg((run) => run.errors) * runs.length };
}

/** Another `kiln serve` on the same database, on core 1 (beside the load generator: this machine has two cores). */
async function startSecondNode(env: Record<string, string>): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = await startChild(KILN_SERVE, { ...env, KILN_PORT: String(port) }, `${url}/-/readiness`, 1);
  return { url, stop: () => stopChild(child) };
}

/**
 * A growth scenario: for each size, bring the data up to it in-process (bulk SQL, the server
 * stopped), start the server, and measure each endpoint's p99; every size's p99 is compared with
 * the first size's.
 */
async function runGrowth(scenario: BenchScenario, env: Record<string, string>, seeded: Record<string, unknown>): Promise<Row[]> {
  const growth = scenario.growth!;
  const first = new Map<string, number>();
  const rows: Row[] = [];
  for (const size of growth.sizes) {
    const kiln = await startKiln(loadConfig({ ...env, KILN_LOG_LEVEL: 'silent' }));
    try {
      const started = Date.now();
      await growth.grow(kiln.deps, size, seeded);
      process.stdout.write(`  grew ${scenario.name} to ${size.toLocaleString('en-US')} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    } finally {
      await kiln.close();
    }
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const server = await startChild(KILN_SERVE, { ...env, KILN_PORT: String(port), KILN_HOST: '127.0.0.1' }, `${url}/-/readiness`);
    try {
      for (const target of growth.targets(seeded)) {
        const request = { method: 'GET' as const, headers: target.headers, connections: 4 };
        const probe = await fetch(`${url}${target.path}`, { headers: target.headers });
        const total = probe.headers.get('x-total');
        await probe.arrayBuffer();
        await load(`${url}${target.path}`, request, 1);
        const run = await load(`${url}${target.path}`, request, Math.max(2, DURATION_S / 2));
        if (!first.has(target.name)) first.set(target.name, run.p99);
        const growthFactor = run.p99 / Math.max(first.get(target.name)!, 1);
        const failures = run.non2xx + run.errors;
        rows.push({
          scenario: scenario.name,
          name: `${target.name} @ ${size.toLocaleString('en-US')} issues`,
          rps: run.rps,
          p50: run.p50,
          p99: run.p99,
          baselineRps: null,
          ratio: null,
          target: `p99 ≤${growth.maxP99Growth}× p99 at ${growth.sizes[0].toLocaleString('en-US')}`,
          // A run in which no answer came back measured nothing (p99 0): a failure, not a pass.
          pass: probe.ok && failures === 0 && run.requests > 0 && growthFactor <= growth.maxP99Growth,
          note: `${run.requests === 0 ? 'no answer within the run; ' : ''}p99 ${growthFactor.toFixed(2)}× the first size's; X-Total ${total ?? 'omitted'}; 4 conn.${probe.ok ? '' : `; probe answered ${probe.status}`}${failures ? `; ${run.non2xx} non-2xx, ${run.errors} errors` : ''}`,
        });
      }
    } finally {
      await stopChild(server);
    }
  }
  return rows;
}

async function runScenario(scenario: BenchScenario, baselineUrl: string): Promise<Row[]> {
  const dataDir = mkdtempSync(join(tmpdir(), `kiln-bench-${scenario.name}-`));
  const rootToken = `glpat-bench-${randomBytes(12).toString('hex')}`;
  const countFile = join(dataDir, 'query-counts.json');
  // KILN_READ_CACHE=false npm run bench measures the read targets without the read cache.
  const passed: Record<string, string> = process.env.KILN_READ_CACHE ? { KILN_READ_CACHE: process.env.KILN_READ_CACHE } : {};
  const rows: Row[] = [];
  let server: ChildProcess | null = null;
  let postgres: { url: string; drop(): Promise<void> } | null = null;
  let background: Awaited<ReturnType<NonNullable<BenchScenario['background']>>> | null = null;
  try {
    if (scenario.database === 'postgres') postgres = await freshPostgres(scenario.name);
    const database: Record<string, string> = postgres ? { KILN_DATABASE_URL: postgres.url } : {};
    // No SSH server unless the scenario asks for one (on a port of its own): the default port 2222 is
    // another Kiln's on a machine running one (a test suite's `kiln serve`, say).
    const env = { KILN_DATA_DIR: dataDir, KILN_INITIAL_ROOT_PASSWORD: 'bench-root-password', KILN_INITIAL_ROOT_TOKEN: rootToken, KILN_LOG_LEVEL: 'warn', KILN_SSH_PORT: 'off', ...passed, ...database, ...scenario.env?.(dataDir) };
    // Seed in-process straight into the data dir's database, then close it before the server opens it.
    let seeded: Record<string, unknown> = {};
    if (scenario.seed) {
      const kiln = await startKiln(loadConfig({ ...env, KILN_LOG_LEVEL: 'silent' }));
      try {
        const started = Date.now();
        seeded = await scenario.seed(kiln.deps, { rootToken });
        process.stdout.write(`  seeded ${scenario.name} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
      } finally {
        await kiln.close();
      }
    }
    if (scenario.growth) {
      rows.push(...(await runGrowth(scenario, env, seeded)));
      return rows;
    }
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    // Node's own options go through NODE_OPTIONS: bin/kiln starts Node itself.
    const nodeOptions = [...PROFILE, `--import="${pathToFileURL(QUERY_COUNTER).href}"`].join(' ');
    server = await startChild(KILN_SERVE, { NODE_OPTIONS: nodeOptions, ...(process.env.BENCH_CPU_PROF_DIR ? { BENCH_CPU_PROF_DIR: process.env.BENCH_CPU_PROF_DIR } : {}), ...env, KILN_PORT: String(port), KILN_HOST: '127.0.0.1', BENCH_QUERY_COUNT_FILE: countFile, ...(scenario.background ? { BENCH_QUERY_COUNT_READS: '1' } : {}) }, `${url}/-/readiness`);
    const started = server;
    const benchServer: BenchServer = {
      url,
      rootToken,
      gitProcesses: async () => (await readCounts(started, countFile))?.gitProcesses ?? null,
      gcMicros: async () => (await readCounts(started, countFile))?.gcMicros ?? null,
      databaseUrl: postgres?.url,
      running: () => started.exitCode === null && started.signalCode === null,
      cpuMs: () => processCpuMs(started.pid),
    };
    if (scenario.background) background = await scenario.background(benchServer, seeded);
    let targetIndex = 0;
    for (const target of await scenario.targets(benchServer, seeded)) {
      const targetUrl = `${url}${target.path}`;
      const probe = await fetch(targetUrl, { method: target.method, headers: target.headers, body: typeof target.body === 'function' ? target.body() : target.body });
      const bytes = Buffer.from(await probe.arrayBuffer());
      const size = bytes.byteLength;
      if (!probe.ok) {
        rows.push({ scenario: scenario.name, name: target.name, rps: null, p50: null, p99: null, baselineRps: null, ratio: null, target: '', pass: false, note: `probe answered ${probe.status}` });
        continue;
      }
      const fixedName = `${scenario.name}-${(targetIndex += 1)}`;
      await fetch(`${baselineUrl}/fixed/${fixedName}`, { method: 'PUT', headers: { 'x-fixed-headers': JSON.stringify(fixedHeaders(probe)) }, body: bytes });
      const baselineTarget = { method: 'GET' as const, connections: target.connections };
      const sizedBaseline = `${baselineUrl}/size/${size}`;
      const preBaseline = `${baselineUrl}/fixed/${fixedName}`;
      process.stdout.write(`  ${scenario.name} / ${target.name}: warming up (${size} B responses)\n`);
      background?.pause();
      await load(sizedBaseline, baselineTarget, WARMUP_S);
      await load(preBaseline, baselineTarget, WARMUP_S);
      background?.resume();
      await load(targetUrl, target, WARMUP_S);
      const kilnRuns: Load[] = [];
      const baseRuns: Load[] = [];
      const preRuns: Load[] = [];
      // The server's CPU per response, over the measured rounds (background writes included).
      let cpuMicros = 0;
      let gcMicros = 0;
      let counted = true;
      for (let round = 0; round < 2; round += 1) {
        const before = await readCounts(server, countFile);
        kilnRuns.push(await load(targetUrl, target, DURATION_S / 2));
        const after = await readCounts(server, countFile);
        if (before && after) {
          cpuMicros += after.cpuMicros - before.cpuMicros;
          gcMicros += after.gcMicros - before.gcMicros;
        } else counted = false;
        // The baselines share core 0 with Kiln: pause the write stream while they run, so that they
        // measure the machine's limit and not what Kiln's writes leave of it.
        background?.pause();
        baseRuns.push(await load(sizedBaseline, baselineTarget, DURATION_S / 2));
        preRuns.push(await load(preBaseline, baselineTarget, DURATION_S / 2));
        background?.resume();
      }
      const statementCounts = counted ? await countingPass(server, countFile, () => load(targetUrl, target, 1)) : null;
      const kilnRun = mean(kilnRuns);
      const baseRun = mean(baseRuns);
      const preRun = mean(preRuns);
      const ratio = kilnRun.rps / baseRun.rps;
      const preRatio = kilnRun.rps / preRun.rps;
      const verdict = judge(target, kilnRun.rps, kilnRun.p99, ratio, preRatio);
      const failures = kilnRun.non2xx + kilnRun.errors;
      rows.push({
        scenario: scenario.name,
        name: target.name,
        rps: kilnRun.rps,
        p50: kilnRun.p50,
        p99: kilnRun.p99,
        baselineRps: baseRun.rps,
        ratio,
        preBaselineRps: preRun.rps,
        preRatio,
        perRequest: statementCounts && kilnRun.requests > 0 ? { statements: statementCounts.statements / statementCounts.requests, roundTrips: statementCounts.roundTrips / statementCounts.requests, cpuMicros: cpuMicros / kilnRun.requests } : null,
        target: verdict.text,
        pass: verdict.pass && failures === 0,
        note: failures ? `${kilnRun.non2xx} non-2xx, ${kilnRun.errors} errors` : `${size} B, ${target.connections ?? 10} conn.${counted ? `; ${gcShare(gcMicros, cpuMicros)}` : ''}`,
      });
    }
    if (scenario.mixes) {
      const serverEnv = { ...env, KILN_HOST: '127.0.0.1' };
      const first = server;
      for (const mix of await scenario.mixes(benchServer, seeded)) {
        rows.push(
          ...(await measureMix(mix, {
            scenario: scenario.name,
            kilnUrl: url,
            baselineUrl,
            warmupS: WARMUP_S,
            durationS: DURATION_S,
            serverTimes: async () => readCounts(first, countFile),
            databaseCpuMicros: postgres ? () => databaseCpuMicros(new URL(postgres!.url).pathname.slice(1)) : undefined,
            countStatements: (run) => countingPass(first, countFile, run),
            secondNode: scenario.nodes === 2 ? () => startSecondNode(serverEnv) : undefined,
          })),
        );
      }
    }
    if (background) {
      const summary = await background.stop();
      background = null;
      for (const row of rows) if (row.scenario === scenario.name && !row.note.includes('non-2xx')) row.note += `; ${summary}`;
    }
    if (scenario.custom) {
      for (const result of await scenario.custom(benchServer, seeded)) {
        rows.push({
          scenario: scenario.name,
          name: result.name,
          rps: null,
          p50: null,
          p99: null,
          baselineRps: null,
          ratio: result.baseline ? result.value / result.baseline : null,
          value: `${result.value} ${result.unit}${result.baseline !== undefined ? ` (baseline ${result.baseline} ${result.unit})` : ''}`,
          target: result.target,
          pass: result.pass,
          note: '',
        });
      }
    }
  } catch (error) {
    rows.push({ scenario: scenario.name, name: '(scenario failed)', rps: null, p50: null, p99: null, baselineRps: null, ratio: null, target: '', pass: false, note: String((error as Error).message).split('\n')[0] });
  } finally {
    if (background) await background.stop().catch(() => '');
    if (server) await stopChild(server);
    if (postgres) await postgres.drop().catch((error: Error) => process.stderr.write(`bench: dropping the PostgreSQL database failed: ${error.message}\n`));
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

const fmt = (value: number | null, digits = 0) => (value === null ? '—' : value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }));

export function table(rows: Row[]): string {
  const header =
    '| scenario | target | req/s | p50 ms | p99 ms | baseline req/s | ratio | pre-serialised req/s | ratio (pre) | statements / round trips / server CPU µs per req. | goal | result | note |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|';
  const ratio = (value: number | null | undefined) => (value === null || value === undefined ? '—' : `${value.toFixed(2)}×`);
  const count = (value: number) => (Number.isNaN(value) ? '—' : value.toFixed(1));
  const perRequest = (row: Row) => (row.perRequest ? `${count(row.perRequest.statements)} / ${count(row.perRequest.roundTrips)} / ${row.perRequest.cpuMicros.toFixed(0)}` : '—');
  const lines = rows.map(
    (row) =>
      `| ${row.scenario} | ${row.name} | ${row.value ?? fmt(row.rps)} | ${fmt(row.p50, 1)} | ${fmt(row.p99, 1)} | ${fmt(row.baselineRps)} | ${ratio(row.ratio)} | ${fmt(row.preBaselineRps ?? null)} | ${ratio(row.preRatio)} | ${perRequest(row)} | ${row.target} | ${row.pass ? 'pass' : '**FAIL**'} | ${row.note} |`,
  );
  return [header, ...lines].join('\n');
}

/** Replace each scenario's block in the generated section; blocks of scenarios not run are kept. */
export function updateReport(text: string, rows: Row[], stamp: string): string {
  const start = '<!-- bench:results:start -->';
  const end = '<!-- bench:results:end -->';
  if (!text.includes(start)) text = `${text.trimEnd()}\n\n## Latest results\n\n${start}\n${end}\n`;
  const [before, rest] = text.split(start);
  const [inside, after] = rest.split(end);
  const blocks = new Map<string, string>();
  for (const match of inside.matchAll(/<!-- scenario:(\S+) -->\n([\s\S]*?)<!-- \/scenario -->\n/g)) blocks.set(match[1], match[2]);
  for (const name of new Set(rows.map((row) => row.scenario))) {
    blocks.set(name, `${stamp}\n\n${table(rows.filter((row) => row.scenario === name))}\n\n`);
  }
  const body = [...blocks.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, block]) => `<!-- scenario:${name} -->\n${block}<!-- /scenario -->\n`).join('\n');
  return `${before}${start}\n${body}${end}${after}`;
}

async function main(): Promise<void> {
  const only = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
  const scenarios = await loadScenarios(only);
  if (scenarios.length === 0) {
    process.stderr.write(`bench: no scenario matches ${only.join(', ') || '(none found in dist/bench/scenarios)'}\n`);
    process.exit(2);
  }
  pinSelf();
  const baselinePort = await freePort();
  const baselineUrl = `http://127.0.0.1:${baselinePort}`;
  const baseline = await startChild([process.execPath, BASELINE, String(baselinePort)], {}, `${baselineUrl}/size/10`);
  const rows: Row[] = [];
  try {
    for (const scenario of scenarios) {
      process.stdout.write(`scenario ${scenario.name}\n`);
      rows.push(...(await runScenario(scenario, baselineUrl)));
    }
  } finally {
    await stopChild(baseline);
  }
  const rendered = table(rows);
  process.stdout.write(`\n${rendered}\n`);
  const stamp = `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}, ${cpus().length} cores${PIN ? ' (server pinned to core 0, autocannon to core 1)' : ''}, ${WARMUP_S} s warm-up, then Kiln / baseline / pre-serialised baseline alternated twice for ${DURATION_S / 2} s each.`;
  if (REPORT !== '-') {
    const report = existsSync(REPORT) ? readFileSync(REPORT, 'utf8') : '# Performance\n';
    writeFileSync(REPORT, updateReport(report, rows, stamp));
    process.stdout.write(`\nwrote ${REPORT}\n`);
  }
  if (process.argv.includes('--strict') && rows.some((row) => !row.pass)) process.exit(1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error) => {
    process.stderr.write(`bench: ${(error as Error).stack ?? error}\n`);
    process.exit(1);
  });
}
