// For tests that compare the cost of one input with another's in the same test (never an absolute
// time): the fastest of several runs is the one least disturbed by other work on the machine.
export function fastestRun(run: () => void, attempts = 15): number {
  let best = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const started = performance.now();
    run();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}
