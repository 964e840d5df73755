// The event-loop budget of a hostile input: while the work runs, GET /-/liveness is asked every 10 ms
// (in-process, through the app) and the slowest answer shows whether anything held the loop. The
// budget is 100 ms (issue 33).
//
// This machine's scheduler alone sometimes delays a process by more than that (the CPUs are shared),
// so a run over budget is tried again, with fresh input, up to three times: a real stall (seconds on
// the code before the fix) is over budget every time, scheduler noise is not.
import type { TestKiln } from './kiln.js';

export const LIVENESS_BUDGET_MS = 100;
const ATTEMPTS = 3;

export interface Liveness<T> {
  result: T;
  /** The slowest /-/liveness answer while the work ran, in ms. */
  slowestMs: number;
  probes: number;
}

/** One run of `work` with the probe beside it. */
export async function probeLiveness<T>(kiln: Pick<TestKiln, 'request'>, work: () => Promise<T>): Promise<Liveness<T>> {
  let done = false;
  let slowestMs = 0;
  let probes = 0;
  const probe = async () => {
    while (!done) {
      const started = performance.now();
      const response = await kiln.request('GET', '/-/liveness');
      if (response.statusCode !== 200) throw new Error(`/-/liveness answered ${response.statusCode}`);
      slowestMs = Math.max(slowestMs, performance.now() - started);
      probes += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const probing = probe();
  try {
    const result = await work();
    return { result, slowestMs, probes };
  } finally {
    done = true;
    await probing;
  }
}

/**
 * Runs `work(attempt)` (attempt 0, 1, 2: make its input differ, so nothing kept from an earlier try
 * answers it) until /-/liveness stayed within the budget (100 ms unless given) throughout; throws
 * with every run's slowest answer when none did. Answers the last run.
 */
export async function whileLive<T>(kiln: Pick<TestKiln, 'request'>, work: (attempt: number) => Promise<T>, budgetMs = LIVENESS_BUDGET_MS): Promise<Liveness<T>> {
  const slowest: number[] = [];
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const run = await probeLiveness(kiln, () => work(attempt));
    if (run.slowestMs < budgetMs) return run;
    slowest.push(Math.round(run.slowestMs));
  }
  throw new Error(`/-/liveness was slower than ${budgetMs} ms in every run: ${slowest.join(', ')} ms`);
}
