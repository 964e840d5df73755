// The worker's pacing (src/platform/jobs/pacing.ts) with a fake clock and a fake request counter:
// idle → no pause; requests in the last 100 ms → a pause of 9× the job's wall time, capped; and under
// a steady stream of requests the worker still gets its tenth of the time, so jobs are never starved.
import { describe, expect, it } from 'vitest';
import { BackgroundPacer, BUSY_REQUESTS, BUSY_WINDOW_MS, MAX_PAUSE_MS, PAUSE_FACTOR, RequestActivity } from '../../src/platform/jobs/pacing.js';

function fixture() {
  const activity = new RequestActivity();
  let now = 1_000;
  const pacer = new BackgroundPacer(activity, () => now);
  return { activity, pacer, advance: (ms: number) => (now += ms) };
}

describe('BackgroundPacer', () => {
  it('runs flat out while no request has arrived', () => {
    const { pacer, advance } = fixture();
    expect(pacer.pauseAfter(50)).toBe(0);
    advance(1_000);
    expect(pacer.pauseAfter(50)).toBe(0);
  });

  it('pauses 9× the job after requests arrived, until the busy window has passed without one', () => {
    const { activity, pacer, advance } = fixture();
    activity.count += BUSY_REQUESTS;
    expect(pacer.pauseAfter(4)).toBe(4 * PAUSE_FACTOR);
    advance(BUSY_WINDOW_MS - 1);
    expect(pacer.pauseAfter(4)).toBe(36);
    advance(1);
    expect(pacer.pauseAfter(4)).toBe(0);
    expect(pacer.busy()).toBe(false);
    activity.count += BUSY_REQUESTS;
    expect(pacer.busy()).toBe(true);
  });

  it('does not count a client polling a job (a request every 10 ms) as load, nor a few requests after a quiet spell', () => {
    const { activity, pacer, advance } = fixture();
    for (let i = 0; i < 100; i += 1) {
      activity.count += 1;
      advance(10);
      expect(pacer.pauseAfter(4)).toBe(0);
    }
    advance(10_000);
    activity.count += BUSY_REQUESTS;
    advance(5_000);
    expect(pacer.busy()).toBe(false);
  });

  it('bounds the pause of a long job (one that waited on the network used little CPU)', () => {
    const { activity, pacer } = fixture();
    activity.count += BUSY_REQUESTS;
    expect(pacer.pauseAfter(10_000)).toBe(MAX_PAUSE_MS);
    expect(pacer.pauseAfter(-1)).toBe(0);
  });

  it('under a steady stream of requests leaves the jobs a tenth of the time, never none', () => {
    const { activity, pacer, advance } = fixture();
    let jobs = 0;
    let working = 0;
    // A second of requests every millisecond; jobs of 2 ms each, paced.
    for (let elapsed = 0; elapsed < 1_000;) {
      activity.count += 2;
      advance(2);
      working += 2;
      jobs += 1;
      const pause = pacer.pauseAfter(2);
      activity.count += pause;
      advance(pause);
      elapsed += 2 + pause;
    }
    // Flat out until the first BUSY_REQUESTS have arrived (10 jobs), then a tenth of the time.
    expect(jobs).toBe(10 + Math.floor((1_000 - 20) / 20));
    expect(working / 1_000).toBeGreaterThan(0.1);
    expect(working / 1_000).toBeLessThan(0.12);
  });
});
