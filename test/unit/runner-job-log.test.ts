// Kiln's runner sends its log as often as the server asks (src/runner/job-log.ts): each PATCH and PUT
// answer's X-GitLab-Trace-Update-Interval sets the wait before the next send, bounded by the runner's
// maximum, and the last send at the job's end goes at once.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JobLog, MAX_TRACE_INTERVAL_MS } from '../../src/runner/job-log.js';
import type { JobPayload, RunnerClient } from '../../src/runner/protocol-client.js';

const job = { id: 7, token: 'job-token', variables: [] } as unknown as JobPayload;

/** A server that answers each PATCH with the next interval of `intervals` (null: no header), and records when it was sent. */
function fakeClient(intervals: Array<number | null>) {
  const sends: Array<{ at: number; text: string }> = [];
  const puts: number[] = [];
  const client = {
    appendTrace: async (_job: JobPayload, offset: number, data: Uint8Array) => {
      sends.push({ at: Date.now(), text: Buffer.from(data).toString() });
      return { accepted: true, size: offset + data.length, updateInterval: intervals.length > 1 ? intervals.shift()! : (intervals[0] ?? null) };
    },
    updateJob: async () => {
      puts.push(Date.now());
      return { updateInterval: null };
    },
  } as unknown as RunnerClient;
  return { client, sends, puts };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the runner\'s log sends', () => {
  it('wait as the server answers: 3 s, then 60 s; the last send goes at once', async () => {
    const { client, sends } = fakeClient([3, 60]);
    const log = new JobLog(client, job, { intervalMs: 1000, keepAliveMs: 600_000, onGone: () => undefined });
    log.start();
    log.write('one\n');
    await vi.advanceTimersByTimeAsync(1000);
    expect(sends.map((send) => send.at)).toEqual([1000]);
    log.write('two\n');
    await vi.advanceTimersByTimeAsync(2999);
    expect(sends).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sends.map((send) => send.at)).toEqual([1000, 4000]);
    log.write('three\n');
    await vi.advanceTimersByTimeAsync(59_999);
    expect(sends).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(sends.map((send) => send.at)).toEqual([1000, 4000, 64_000]);
    log.write('four\n');
    await vi.advanceTimersByTimeAsync(10_000);
    await log.close();
    expect(sends.map((send) => [send.at, send.text])).toEqual([[1000, 'one\n'], [4000, 'two\n'], [64_000, 'three\n'], [74_000, 'four\n']]);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(sends).toHaveLength(4);
  });

  it('keeps its own interval while the server names none, and never waits longer than its maximum', async () => {
    const { client, sends } = fakeClient([null, 60]);
    const log = new JobLog(client, job, { intervalMs: 500, maxIntervalMs: 2000, keepAliveMs: 600_000, onGone: () => undefined });
    log.start();
    log.write('a\n');
    await vi.advanceTimersByTimeAsync(500);
    expect(sends.map((send) => send.at)).toEqual([500]);
    // No header: the next send after the runner's own 500 ms.
    log.write('b\n');
    await vi.advanceTimersByTimeAsync(500);
    expect(sends.map((send) => send.at)).toEqual([500, 1000]);
    // 60 s asked, 2 s at most: the next send 2 s later, not sooner.
    log.write('c\n');
    await vi.advanceTimersByTimeAsync(1999);
    expect(sends).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(sends.map((send) => send.at)).toEqual([500, 1000, 3000]);
    await log.close();
  });

  it('bounds a server\'s interval to GitLab Runner\'s 15 minutes', async () => {
    const { client, sends } = fakeClient([86_400]);
    const log = new JobLog(client, job, { intervalMs: 1000, keepAliveMs: 86_400_000, onGone: () => undefined });
    log.start();
    log.write('x\n');
    await vi.advanceTimersByTimeAsync(1000);
    log.write('y\n');
    await vi.advanceTimersByTimeAsync(MAX_TRACE_INTERVAL_MS - 1);
    expect(sends).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sends.map((send) => send.at)).toEqual([1000, 1000 + MAX_TRACE_INTERVAL_MS]);
    await log.close();
  });
});
