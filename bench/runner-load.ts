// Runners for the ci-runners bench (issue 39), speaking the runner protocol as GitLab Runner does over
// loopback: `POST /api/v4/jobs/request` with the body GitLab Runner sends (its token, system_id, `info`
// with its features, and `last_update`: the `X-GitLab-Last-Update` value of its previous 204, which
// makes the server hold the request until the queue changes or the long poll ends), and the job log
// appended with `PATCH /jobs/:id/trace` and Content-Range in chunks.
import { randomBytes } from 'node:crypto';

/** GitLab Runner 17's `info` (network/gitlab.go): the server sees the same fields and features. */
const INFO = {
  name: 'gitlab-runner',
  version: '17.5.0',
  revision: '66a723c3',
  platform: 'linux',
  architecture: 'amd64',
  executor: 'docker',
  shell: 'bash',
  features: {
    variables: true, image: true, services: true, artifacts: true, cache: true, fallback_cache_keys: true, shared: true, upload_multiple_artifacts: true, upload_raw_artifacts: true,
    session: true, terminal: true, refspecs: true, masking: true, proxy: false, raw_variables: true, artifacts_exclude: true, multi_build_steps: true, trace_reset: true,
    trace_checksum: true, trace_size: true, vault_secrets: true, cancelable: true, return_exit_code: true, service_variables: true, service_multiple_aliases: true,
    image_executor_opts: true, service_executor_opts: true, cancel_gracefully: true, native_steps_integration: false, two_phase_job_commit: false,
  },
  config: { gpus: '' },
};

export interface HandedJob {
  id: number;
  token: string;
}

/** One runner: its token, its system_id and the queue value of its last 204. */
export class BenchRunner {
  private lastUpdate: string | undefined;
  private readonly systemId = `s_${randomBytes(6).toString('hex')}`;
  /** Answers to jobs/request by status. */
  readonly answers = new Map<number, number>();

  constructor(private readonly url: string, readonly token: string) {}

  /** One `jobs/request`: the job handed out, or null (204: the queue value kept for the next request). */
  async request(signal?: AbortSignal): Promise<HandedJob | null> {
    const body = { token: this.token, system_id: this.systemId, info: INFO, ...(this.lastUpdate ? { last_update: this.lastUpdate } : {}) };
    const response = await fetch(`${this.url}/api/v4/jobs/request`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal });
    this.answers.set(response.status, (this.answers.get(response.status) ?? 0) + 1);
    const update = response.headers.get('x-gitlab-last-update');
    if (update) this.lastUpdate = update;
    if (response.status === 201) {
      const job = (await response.json()) as { id: number; token: string };
      return { id: job.id, token: job.token };
    }
    await response.arrayBuffer();
    if (response.status !== 204) throw new Error(`jobs/request answered ${response.status}`);
    return null;
  }
}

/** `runners` long-polling until `stop` is called (a 204 is followed by the next request at once, without GitLab Runner's check_interval). */
export function pollIdle(runners: BenchRunner[]): { polls(): number; stop(): Promise<void> } {
  const aborted = new AbortController();
  let polls = 0;
  const lanes = runners.map(async (runner) => {
    while (!aborted.signal.aborted) {
      try {
        if (await runner.request(aborted.signal)) throw new Error('an idle runner was handed a job');
        polls += 1;
      } catch (error) {
        if (!aborted.signal.aborted) throw error;
      }
    }
  });
  return {
    polls: () => polls,
    async stop() {
      aborted.abort();
      await Promise.all(lanes);
    },
  };
}

/** Every runner asks for jobs until it is answered 204 (no job left): the jobs in the order handed out. */
export async function drainQueue(runners: BenchRunner[]): Promise<HandedJob[]> {
  const handed: HandedJob[] = [];
  await Promise.all(
    runners.map(async (runner) => {
      for (;;) {
        const job = await runner.request();
        if (!job) return;
        handed.push(job);
      }
    }),
  );
  return handed;
}

/** A log line as GitLab Runner writes them (ANSI colours, a section now and then), `size` bytes of them. */
export function jobLog(size: number): Buffer {
  const lines: string[] = [];
  let bytes = 0;
  for (let n = 0; bytes < size; n += 1) {
    const line =
      n % 500 === 0
        ? `section_start:${1_700_000_000 + n}:step_${n}\r\x1b[0K\x1b[32;1mStep ${n}\x1b[0;m\n`
        : n % 500 === 499
          ? `section_end:${1_700_000_000 + n}:step_${n - 499}\r\x1b[0K\n`
          : `\x1b[0;33m[${String(n).padStart(6, '0')}]\x1b[0;m compiling src/module-${n % 97}.ts ... ok (${n % 13} ms)\n`;
    lines.push(line);
    bytes += Buffer.byteLength(line);
  }
  return Buffer.from(lines.join('')).subarray(0, size);
}

/** `log` appended at byte `at` of the job's log in `chunk`-byte pieces, one after the other, as GitLab Runner's trace buffer sends them. */
export async function appendLog(url: string, job: HandedJob, log: Buffer, chunk: number, at = 0): Promise<void> {
  for (let offset = 0; offset < log.length; offset += chunk) {
    const piece = log.subarray(offset, Math.min(log.length, offset + chunk));
    const start = at + offset;
    const response = await fetch(`${url}/api/v4/jobs/${job.id}/trace`, {
      method: 'PATCH',
      headers: { 'job-token': job.token, 'content-type': 'text/plain', 'content-range': `${start}-${start + piece.length - 1}` },
      body: new Uint8Array(piece),
    });
    await response.arrayBuffer();
    if (response.status !== 202) throw new Error(`PATCH /jobs/${job.id}/trace answered ${response.status}`);
  }
}
