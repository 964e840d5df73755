// The realistic mixes of `npm run bench` (BenchMix, bench/scenario.ts): every request of the mix is
// asked of Kiln once, its answers (404s included) handed to the replay baseline (bench/baseline.ts),
// then Kiln and the baseline are loaded in alternation with requests drawn at random from the mix,
// one user's token each. Optionally a second node on the same database, loaded beside the first.
import autocannon from 'autocannon';
import { gcShare, type BenchMix, type MixRequest } from './scenario.js';
import type { Row } from './run.js';

export interface MixLoad {
  rps: number;
  requests: number;
  p50: number;
  p99: number;
  status4xx: number;
  status5xx: number;
  errors: number;
}

/** A small seeded generator, so that runs draw the same sequence. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Load `url` for `seconds` with requests drawn from `requests`, their paths under `prefix`. */
export async function loadMix(url: string, prefix: string, requests: MixRequest[], connections: number, seconds: number, seed = 1): Promise<MixLoad> {
  const random = generator(seed);
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        setupRequest: (request: autocannon.Request) => {
          const pick = requests[Math.floor(random() * requests.length)];
          return { ...request, method: 'GET', path: `${prefix}${pick.path}`, headers: { 'private-token': pick.token } };
        },
      },
    ],
  });
  return { rps: result.requests.average, requests: result.requests.total, p50: result.latency.p50, p99: result.latency.p99, status4xx: result['4xx'], status5xx: result['5xx'], errors: result.errors + result.timeouts };
}

function sum(runs: MixLoad[]): MixLoad {
  const avg = (pick: (run: MixLoad) => number) => runs.reduce((total, run) => total + pick(run), 0) / runs.length;
  const total = (pick: (run: MixLoad) => number) => runs.reduce((all, run) => all + pick(run), 0);
  return { rps: avg((run) => run.rps), requests: total((run) => run.requests), p50: avg((run) => run.p50), p99: Math.max(...runs.map((run) => run.p99)), status4xx: total((run) => run.status4xx), status5xx: total((run) => run.status5xx), errors: total((run) => run.errors) };
}

/** Two loads at once (one per node), as one: rates added, the worse p99. */
function combined(a: MixLoad, b: MixLoad): MixLoad {
  return { rps: a.rps + b.rps, requests: a.requests + b.requests, p50: Math.max(a.p50, b.p50), p99: Math.max(a.p99, b.p99), status4xx: a.status4xx + b.status4xx, status5xx: a.status5xx + b.status5xx, errors: a.errors + b.errors };
}

interface Probed {
  /** Share of the mix's distinct requests Kiln answered 404. */
  notFound: number;
  /** Statuses other than 200 and 404 (a wrong token, a 500): the mix is broken. */
  unexpected: string[];
}

/** Ask Kiln every distinct request of the mix once and hand its answers to the replay baseline. */
async function probe(kilnUrl: string, baselineUrl: string, replayName: string, requests: MixRequest[]): Promise<Probed> {
  const distinct = new Map<string, MixRequest>();
  for (const request of requests) distinct.set(`${request.token} ${request.path}`, request);
  const answers: Array<{ token: string; path: string; status: number; headers: Record<string, string>; body: string }> = [];
  const unexpected: string[] = [];
  let notFound = 0;
  const queue = [...distinct.values()];
  const worker = async () => {
    for (let request = queue.shift(); request; request = queue.shift()) {
      const response = await fetch(`${kilnUrl}${request.path}`, { headers: { 'private-token': request.token } });
      const body = Buffer.from(await response.arrayBuffer());
      if (response.status === 404) notFound += 1;
      else if (response.status !== 200) unexpected.push(`${response.status} ${request.kind}`);
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        if (!['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name)) headers[name] = value;
      });
      answers.push({ token: request.token, path: request.path, status: response.status, headers, body: body.toString('base64') });
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  const stored = await fetch(`${baselineUrl}/replay/${replayName}`, { method: 'PUT', body: JSON.stringify(answers) });
  if (stored.status !== 204) throw new Error(`the replay baseline refused the answers (${stored.status})`);
  return { notFound: notFound / distinct.size, unexpected };
}

export interface MixContext {
  scenario: string;
  kilnUrl: string;
  baselineUrl: string;
  warmupS: number;
  durationS: number;
  /** The server's CPU time and its collector's time so far, in µs (bench/query-counter.ts), or null where they cannot be read. */
  serverTimes(): Promise<{ cpuMicros: number; gcMicros: number } | null>;
  /** The database server's CPU time for this database so far, in µs (PostgreSQL on this machine, bench/database-cpu.ts), or null. */
  databaseCpuMicros?(): number | null;
  /** Statements and round trips of the requests `run` makes, in a counting pass (bench/query-counter.ts), or null. */
  countStatements?: (run: () => Promise<unknown>) => Promise<{ statements: number; roundTrips: number; requests: number } | null>;
  /** Start a second node on the same database; answers its URL and how to stop it. */
  secondNode?: () => Promise<{ url: string; stop(): Promise<void> }>;
}

const percent = (part: number, whole: number) => (whole ? (100 * part) / whole : 0);

export async function measureMix(mix: BenchMix, context: MixContext): Promise<Row[]> {
  const connections = mix.connections ?? 10;
  const replayName = `${context.scenario}-${mix.name}`.replace(/\W+/g, '-');
  const prefix = `/replay/${replayName}`;
  const kinds = [...new Set(mix.requests.map((request) => request.kind))];
  const probed = await probe(context.kilnUrl, context.baselineUrl, replayName, mix.requests);
  process.stdout.write(`  ${context.scenario} / ${mix.name}: ${mix.requests.length} requests over ${kinds.length} kinds, ${(probed.notFound * 100).toFixed(1)} % answered 404; warming up\n`);
  await loadMix(context.baselineUrl, prefix, mix.requests, connections, context.warmupS);
  await loadMix(context.kilnUrl, '', mix.requests, connections, context.warmupS);
  const kilnRuns: MixLoad[] = [];
  const baseRuns: MixLoad[] = [];
  let cpu = 0;
  let gc = 0;
  let cpuKnown = true;
  let databaseCpu: number | null = context.databaseCpuMicros ? 0 : null;
  for (let round = 0; round < 2; round += 1) {
    const before = await context.serverTimes();
    const databaseBefore = context.databaseCpuMicros?.() ?? null;
    kilnRuns.push(await loadMix(context.kilnUrl, '', mix.requests, connections, context.durationS / 2, round + 1));
    const after = await context.serverTimes();
    const databaseAfter = context.databaseCpuMicros?.() ?? null;
    if (before === null || after === null) cpuKnown = false;
    else {
      cpu += after.cpuMicros - before.cpuMicros;
      gc += after.gcMicros - before.gcMicros;
    }
    databaseCpu = databaseCpu === null || databaseBefore === null || databaseAfter === null ? null : databaseCpu + databaseAfter - databaseBefore;
    baseRuns.push(await loadMix(context.baselineUrl, prefix, mix.requests, connections, context.durationS / 2, round + 1));
  }
  // After the measured rounds, a second of the mix with the counting wrappers on: statements and round trips per request.
  const counted = (await context.countStatements?.(() => loadMix(context.kilnUrl, '', mix.requests, connections, 1, 99))) ?? null;
  const kiln = sum(kilnRuns);
  const base = sum(baseRuns);
  const ratio = kiln.rps / base.rps;
  const goals: string[] = [];
  let pass = probed.unexpected.length === 0 && kiln.errors === 0 && kiln.status5xx === 0 && base.status5xx === 0;
  if (mix.targets.minRatio !== undefined) {
    goals.push(`≥${mix.targets.minRatio}× replay`);
    pass &&= ratio >= mix.targets.minRatio;
  }
  if (mix.targets.maxP99Ms !== undefined) {
    goals.push(`p99 <${mix.targets.maxP99Ms} ms`);
    pass &&= kiln.p99 < mix.targets.maxP99Ms;
  }
  const notes = [`${new Set(mix.requests.map((request) => request.token)).size} tokens, ${kinds.join('/')}`, `${percent(kiln.status4xx, kiln.requests).toFixed(1)} % 404 (baseline ${percent(base.status4xx, base.requests).toFixed(1)} %)`, `${connections} conn.`];
  if (cpuKnown) notes.push(gcShare(gc, cpu));
  if (databaseCpu !== null && kiln.requests > 0) notes.push(`PostgreSQL backends ${(databaseCpu / kiln.requests).toFixed(0)} µs CPU a request`);
  if (probed.unexpected.length) notes.push(`probe: ${[...new Set(probed.unexpected)].slice(0, 3).join(', ')}`);
  if (kiln.errors || kiln.status5xx) notes.push(`${kiln.status5xx} 5xx, ${kiln.errors} errors`);
  const rows: Row[] = [
    {
      scenario: context.scenario,
      name: mix.name,
      rps: kiln.rps,
      p50: kiln.p50,
      p99: kiln.p99,
      baselineRps: base.rps,
      ratio,
      perRequest: cpuKnown && kiln.requests > 0 ? { statements: counted ? counted.statements / counted.requests : Number.NaN, roundTrips: counted ? counted.roundTrips / counted.requests : Number.NaN, cpuMicros: cpu / kiln.requests } : null,
      target: goals.join(', ') || 'reported',
      pass,
      note: notes.join('; '),
    },
  ];
  if (context.secondNode) rows.push(await measureTwoNodes(mix, context, connections));
  return rows;
}

/** One node against two nodes on the same database, alternated; the two-node rate is both nodes' rates added. */
async function measureTwoNodes(mix: BenchMix, context: MixContext, connections: number): Promise<Row> {
  const second = await context.secondNode!();
  try {
    await loadMix(second.url, '', mix.requests, connections, context.warmupS);
    const one: MixLoad[] = [];
    const two: MixLoad[] = [];
    for (let round = 0; round < 2; round += 1) {
      one.push(await loadMix(context.kilnUrl, '', mix.requests, connections, context.durationS / 2, round + 1));
      const [a, b] = await Promise.all([
        loadMix(context.kilnUrl, '', mix.requests, connections, context.durationS / 2, round + 11),
        loadMix(second.url, '', mix.requests, connections, context.durationS / 2, round + 21),
      ]);
      two.push(combined(a, b));
    }
    const single = sum(one);
    const both = sum(two);
    const ratio = both.rps / single.rps;
    const goal = mix.targets.minTwoNodeRatio;
    return {
      scenario: context.scenario,
      name: `${mix.name}, two nodes combined`,
      rps: both.rps,
      p50: both.p50,
      p99: both.p99,
      baselineRps: single.rps,
      ratio,
      target: goal === undefined ? 'reported' : `≥${goal}× one node`,
      pass: (goal === undefined || ratio >= goal) && both.errors === 0 && both.status5xx === 0,
      note: `baseline column: one node in the same rounds; ${percent(both.status4xx, both.requests).toFixed(1)} % 404; ${connections} conn. per node${both.status5xx || both.errors ? `; ${both.status5xx} 5xx, ${both.errors} errors` : ''}`,
    };
  } finally {
    await second.stop();
  }
}
