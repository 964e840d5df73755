// Issue creation under load on two projects, compared (the webhooks and mail scenarios: a project whose
// issues make outgoing work against one whose issues make none). The first load on a fresh server is
// slower (JIT, caches), and this machine drifts by tens of percent over a minute (docs/performance.md,
// Noise): both projects are warmed up, then measured in interleaved rounds, and the ratio is the
// median of the rounds' ratios, as the alert scenario does.
import autocannon from 'autocannon';
import type { BenchServer } from './scenario.js';

const LOAD_S = Number(process.env.BENCH_DURATION_S ?? 8);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 2);
const ROUNDS = 3;
const ROUND_S = Math.max(2, Math.round(LOAD_S / 2));

export async function post(server: BenchServer, path: string, body: unknown): Promise<number> {
  const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'private-token': server.rootToken, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await response.arrayBuffer();
  return response.status;
}

/** A burst of `count` new issues from 8 concurrent clients: the statuses. */
export async function postIssues(server: BenchServer, projectId: number, count: number): Promise<number[]> {
  let next = 0;
  const statuses: number[] = [];
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < count) {
      next += 1;
      statuses.push(await post(server, `/api/v4/projects/${projectId}/issues`, { title: `burst ${next}` }));
    }
  }));
  return statuses;
}

function issueLoad(server: BenchServer, projectId: number, seconds: number): Promise<autocannon.Result> {
  let n = 0;
  return autocannon({
    url: `${server.url}/api/v4/projects/${projectId}/issues`,
    method: 'POST',
    connections: 10,
    duration: seconds,
    headers: { 'private-token': server.rootToken, 'content-type': 'application/json' },
    requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify({ title: `load ${(n += 1)}` }) }) }],
  });
}

export interface ComparedLoad {
  /** Requests per second of the median round. */
  reference: number;
  measured: number;
  ratio: number;
  /** Every round's ratio, in order. */
  ratios: number[];
  /** Failed or non-2xx requests over all rounds. */
  referenceErrors: number;
  measuredErrors: number;
}

export async function compareIssueCreation(server: BenchServer, referenceId: number, measuredId: number): Promise<ComparedLoad> {
  await issueLoad(server, referenceId, WARMUP_S);
  await issueLoad(server, measuredId, WARMUP_S);
  const rounds: Array<{ reference: autocannon.Result; measured: autocannon.Result }> = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    rounds.push({ reference: await issueLoad(server, referenceId, ROUND_S), measured: await issueLoad(server, measuredId, ROUND_S) });
  }
  const ratioOf = (r: (typeof rounds)[number]) => r.measured.requests.average / r.reference.requests.average;
  const median = [...rounds].sort((a, b) => ratioOf(a) - ratioOf(b))[Math.floor(ROUNDS / 2)];
  const errors = (pick: (r: (typeof rounds)[number]) => autocannon.Result) => rounds.reduce((sum, r) => sum + pick(r).errors + pick(r).non2xx, 0);
  return {
    reference: median.reference.requests.average,
    measured: median.measured.requests.average,
    ratio: ratioOf(median),
    ratios: rounds.map(ratioOf),
    referenceErrors: errors((r) => r.reference),
    measuredErrors: errors((r) => r.measured),
  };
}
