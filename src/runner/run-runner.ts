// The runner's loop: `concurrent` lanes, each asking `POST /jobs/request` (long polling with the
// X-GitLab-Last-Update value the server gave last) and running the job it gets, as GitLab Runner's
// `concurrent` setting does. Stopping ends the polls at once and waits for the running jobs;
// aborting also kills them.
import { RunnerClient, type JobResult } from './protocol-client.js';
import { runJob, type RunJobOptions } from './run-job.js';

export interface RunnerOptions extends Omit<RunJobOptions, 'traceIntervalMs' | 'keepAliveMs' | 'interrupt'> {
  url: string;
  token: string;
  concurrent: number;
  traceIntervalMs?: number;
  keepAliveMs?: number;
  /** Told of each job's end (the command prints it; tests may wait on it). */
  onJob?: (jobId: number, result: JobResult | null) => void;
  onError?: (error: unknown) => void;
}

export interface RunningRunner {
  /** Stops asking for jobs and resolves when the running ones ended. */
  stop(): Promise<void>;
  /** Stops asking for jobs and kills the running ones (reported failed, `runner_system_failure`). */
  abort(): Promise<void>;
}

/** After a failed request the lane waits this long before asking again (the server may be restarting). */
const RETRY_MS = 3000;

export async function startRunner(options: RunnerOptions): Promise<RunningRunner> {
  const client = new RunnerClient(options.url, options.token, options.concurrent);
  await client.verify();
  const stopping = new AbortController();
  const interrupting = new AbortController();
  const jobOptions: RunJobOptions = { ...options, traceIntervalMs: options.traceIntervalMs ?? 3000, keepAliveMs: options.keepAliveMs ?? 30_000, interrupt: interrupting.signal };

  async function lane(): Promise<void> {
    let lastUpdate: string | undefined;
    while (!stopping.signal.aborted) {
      try {
        const answer = await client.requestJob(lastUpdate, stopping.signal);
        lastUpdate = answer.lastUpdate;
        if (!answer.job) continue;
        // A job was handed out: the queue may hold more, so the next ask does not wait.
        lastUpdate = undefined;
        const result = await runJob(client, answer.job, jobOptions);
        options.onJob?.(answer.job.id, result);
      } catch (error) {
        if (stopping.signal.aborted) break;
        options.onError?.(error);
        await new Promise((resolve) => {
          const timer = setTimeout(resolve, RETRY_MS);
          stopping.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve(undefined);
          }, { once: true });
        });
      }
    }
  }

  const lanes = Array.from({ length: Math.max(1, options.concurrent) }, () => lane());
  return {
    async stop() {
      stopping.abort();
      await Promise.all(lanes);
    },
    async abort() {
      stopping.abort();
      interrupting.abort();
      await Promise.all(lanes);
    },
  };
}
