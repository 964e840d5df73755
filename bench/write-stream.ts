// A steady background write stream for the bench (issue 20): issue creations through the API at a
// fixed rate, from a loop of its own in the bench process, into a project the measured reads do not
// read. An instance that writes all the time (alerts, pushes, jobs) must keep its reads fast.
import type { BenchServer } from './scenario.js';

export interface WriteStream {
  /** Stop sending (while the bench measures its baselines) until `resume`; the rate counts running time only. */
  pause(): void;
  resume(): void;
  stop(): Promise<string>;
}

export function startIssueStream(server: BenchServer, projectId: number, perSecond = 100, maxInFlight = 50): WriteStream {
  let runningMs = 0;
  let resumedAt: number | null = Date.now();
  const elapsedMs = () => runningMs + (resumedAt === null ? 0 : Date.now() - resumedAt);
  let sent = 0;
  let created = 0;
  let failed = 0;
  let skipped = 0;
  let inFlight = 0;
  const pending = new Set<Promise<void>>();
  const url = `${server.url}/api/v4/projects/${projectId}/issues`;
  const headers = { 'private-token': server.rootToken, 'content-type': 'application/json' };
  const post = () => {
    if (inFlight >= maxInFlight) {
      skipped += 1; // the server fell behind: keep the rate honest rather than queue without bound
      return;
    }
    sent += 1;
    inFlight += 1;
    const request = fetch(url, { method: 'POST', headers, body: JSON.stringify({ title: `Background issue ${sent}` }) })
      .then(async (response) => {
        await response.arrayBuffer();
        if (response.status === 201) created += 1;
        else failed += 1;
      })
      .catch(() => void (failed += 1))
      .finally(() => {
        inFlight -= 1;
        pending.delete(request);
      });
    pending.add(request);
  };
  // Ticks every 10 ms, catching up on the schedule so the mean rate is `perSecond` under timer jitter.
  const timer = setInterval(() => {
    if (resumedAt === null) return;
    const due = Math.floor((elapsedMs() / 1000) * perSecond);
    while (sent + skipped < due) post();
  }, 10);
  return {
    pause() {
      if (resumedAt === null) return;
      runningMs += Date.now() - resumedAt;
      resumedAt = null;
    },
    resume() {
      if (resumedAt === null) resumedAt = Date.now();
    },
    async stop() {
      clearInterval(timer);
      await Promise.allSettled([...pending]);
      const seconds = elapsedMs() / 1000;
      return `background: ${(created / seconds).toFixed(0)} issues/s created (${created} in ${seconds.toFixed(0)} s, ${failed} failed, ${skipped} skipped)`;
    },
  };
}
