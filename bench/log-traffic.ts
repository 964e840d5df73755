// The ci-runners scenario's log traffic, on a worker thread of its own (bench/scenarios/ci-runners.ts):
// either one 5 MB job log written over the phase and sent as a runner sends it (what is new, every
// `pacedEveryMs`), or a flood of 5 MB logs appended with `PATCH /jobs/:id/trace` in 128 KiB chunks
// back to back, one job after another; meanwhile viewers poll the job page's log fragment every 2 s (as its htmx does, with the log's
// state from the last answer) and the raw log is read every second. Sending megabytes and parsing
// pages costs the load generator CPU; on the thread that times the ordinary requests it would show up
// in their latencies, which must be the server's.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { appendLog, jobLog, type HandedJob } from './runner-load.js';

export interface LogTrafficOptions {
  url: string;
  projectPath: string;
  /** Running jobs whose logs are written, one after another. */
  jobs: HandedJob[];
  seconds: number;
  viewers: number;
  logBytes: number;
  chunkBytes: number;
  /** Set: one log, written evenly over `seconds` and sent every this many ms; unset: the flood. */
  pacedEveryMs?: number;
}

export interface LogTrafficResult {
  /** Logs written whole. */
  logs: number;
  /** Latencies (ms) of the job page and its log fragment polls. */
  views: number[];
  /** Latencies (ms) of raw log reads. */
  raws: number[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the log traffic on a worker thread until `seconds` have passed and the log being written is whole. */
export function runLogTraffic(options: LogTrafficOptions): Promise<LogTrafficResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: options });
    worker.once('message', (result: LogTrafficResult) => resolve(result));
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`the log traffic thread exited with ${code}`))));
  });
}

async function logTraffic(options: LogTrafficOptions): Promise<LogTrafficResult> {
  const log = jobLog(options.logBytes);
  let current = options.jobs[0];
  let logs = 0;
  const started = performance.now();
  const writing = options.pacedEveryMs
    ? sendPaced(options, current, log, started).then(() => (logs = 1))
    : (async () => {
        do {
          current = options.jobs[logs];
          await appendLog(options.url, current, log, options.chunkBytes);
          logs += 1;
        } while (performance.now() - started < options.seconds * 1000);
      })();
  const viewed = await viewLog(options, () => `/${options.projectPath}/-/jobs/${current.id}`, writing);
  await writing;
  return { logs, ...viewed };
}

/** One log written evenly over the phase: every `pacedEveryMs`, one PATCH of what the job printed since the last. */
async function sendPaced(options: LogTrafficOptions, job: HandedJob, log: Buffer, started: number): Promise<void> {
  for (let sent = 0; sent < log.length; ) {
    await sleep(options.pacedEveryMs!);
    const printed = Math.min(log.length, Math.round((log.length * (performance.now() - started)) / (options.seconds * 1000)));
    if (printed > sent) {
      await appendLog(options.url, job, log.subarray(sent, printed), printed - sent, sent);
      sent = printed;
    }
  }
}

/** Viewers of the job being written and a raw log reader, until `until` settles. */
async function viewLog(options: LogTrafficOptions, jobPath: () => string, until: Promise<unknown>): Promise<{ views: number[]; raws: number[] }> {
  let done = false;
  void until.finally(() => (done = true));
  const views: number[] = [];
  const raws: number[] = [];
  const timed = async (path: string, headers: Record<string, string>, into: number[]): Promise<string> => {
    const started = performance.now();
    const response = await fetch(`${options.url}${path}`, { headers });
    const body = await response.text();
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
    into.push(performance.now() - started);
    return body;
  };
  const pollOf = (body: string) => /<div id="job-panel"[^>]* hx-get="([^"]+)"/.exec(body)?.[1];
  const viewer = async (index: number) => {
    await sleep((index * 2000) / options.viewers);
    let shown = jobPath();
    let poll = pollOf(await timed(shown, {}, views)) ?? `${shown}/log`;
    while (!done) {
      await sleep(2000);
      if (done) break;
      // The next log is another job: its page is opened as a viewer would.
      if (jobPath() !== shown) {
        shown = jobPath();
        poll = pollOf(await timed(shown, {}, views)) ?? `${shown}/log`;
      } else poll = pollOf(await timed(poll, { 'hx-request': 'true' }, views)) ?? poll;
    }
  };
  const raw = async () => {
    while (!done) {
      await sleep(1000);
      if (!done) await timed(`${jobPath()}/raw`, {}, raws);
    }
  };
  await Promise.all([...Array.from({ length: options.viewers }, (_, index) => viewer(index)), raw()]);
  return { views, raws };
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  void logTraffic(workerData as LogTrafficOptions).then((result) => port.postMessage(result));
}
