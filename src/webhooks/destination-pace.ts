// At most a steady number of requests a second to one destination (scheme, host and port) from this
// process, beside the cap on requests in flight (destination-slots.ts): a receiver named by a hundred
// hooks, or a burst of events, gets an even stream, never a flood (issue 33). Each send reserves the
// destination's next free moment; a send whose moment is past the job's budget is not reserved and
// goes, with the job's other late hooks, into a later job.
export const SENDS_PER_SECOND = 50;
const INTERVAL_MS = 1000 / SENDS_PER_SECOND;
/** Past this many destinations, the ones whose moment has passed are forgotten. */
const REMEMBERED = 10_000;

const nextFree = new Map<string, number>();

/**
 * Reserves the destination's next send at or after `now` (a `performance.now()` time): answers how
 * many ms to wait for it, or null, reserving nothing, when that moment is after `deadline`.
 */
export function reserveSend(destination: string, now: number, deadline: number): number | null {
  const at = Math.max(now, nextFree.get(destination) ?? now);
  if (at > deadline) return null;
  if (nextFree.size >= REMEMBERED) {
    for (const [known, free] of nextFree) if (free <= now) nextFree.delete(known);
  }
  nextFree.set(destination, at + INTERVAL_MS);
  return at - now;
}
