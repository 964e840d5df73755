// The client side of GitLab's runner protocol (what GitLab Runner's network package sends), over
// plain fetch: register or verify, ask for a job with long polling, report the job's state, append
// its log with Content-Range, upload its artifacts archive and download its dependencies'.
import { KILN_VERSION } from '../platform/version.js';

/** What the runner tells about itself in every request (GitLab Runner's `info`). */
export function runnerInfo(concurrent: number) {
  return {
    name: 'kiln-runner',
    version: KILN_VERSION,
    revision: 'kiln',
    platform: process.platform,
    architecture: process.arch,
    executor: 'shell',
    shell: 'bash',
    config: { gpus: '' },
    // The features GitLab Runner announces and Kiln's runner honours (the server may rely on them).
    features: { variables: true, artifacts: true, upload_multiple_artifacts: false, cancelable: true, raw_variables: true, return_exit_code: true, trace_reset: false, trace_checksum: false, trace_size: false, masking: true, cancel_gracefully: false, multi_build_steps: true, concurrent },
  };
}

export interface JobVariable {
  key: string;
  value: string;
  public?: boolean;
  file?: boolean;
  masked?: boolean;
  raw?: boolean;
}

export interface JobStep {
  name: string;
  script: string[];
  timeout?: number;
  when?: string;
  allow_failure?: boolean;
}

export interface JobArtifact {
  name?: string;
  untracked?: boolean;
  paths: string[];
  exclude?: string[];
  when?: 'on_success' | 'on_failure' | 'always';
  expire_in?: string | null;
  artifact_type?: string;
  artifact_format?: string;
}

/** One of the job's `cache:` entries as the server resolved it (GitLab's shape; keys already end in `-protected`/`-non_protected`). */
export interface JobCache {
  key: string;
  untracked: boolean;
  paths: string[];
  policy?: string;
  when?: 'on_success' | 'on_failure' | 'always';
  fallback_keys?: string[];
}

/** The part of `POST /jobs/request`'s answer the shell executor uses. */
export interface JobPayload {
  id: number;
  token: string;
  job_info: { name: string; stage: string; project_id: number; project_full_path?: string };
  git_info: { repo_url: string; ref: string; sha: string; refspecs: string[]; depth: number };
  runner_info: { timeout: number };
  variables: JobVariable[];
  steps: JobStep[];
  artifacts: JobArtifact[] | null;
  cache?: JobCache[];
  dependencies: Array<{ id: number; name: string; token: string; artifacts_file?: { filename: string; size: number } }>;
}

/** The job's end as the runner reports it (`PUT /jobs/:id`). */
export interface JobResult {
  state: 'success' | 'failed';
  failureReason?: 'script_failure' | 'job_execution_timeout' | 'runner_system_failure' | 'unknown_failure';
  exitCode?: number;
}

/**
 * `X-GitLab-Trace-Update-Interval`: how many seconds the server asks the runner to wait before it sends
 * its log again (Kiln answers 3 while the job's page is watched, 60 otherwise). A missing, malformed or
 * non-positive value names none, as GitLab Runner ignores it.
 */
function updateIntervalOf(response: Response): number | null {
  const value = Number(response.headers.get('x-gitlab-trace-update-interval') ?? '');
  return Number.isFinite(value) && value > 0 ? value : null;
}

/** The server told the runner to stop this job (403 on a job call: canceled, or ended some other way). */
export class JobGone extends Error {
  constructor(readonly jobStatus: string) {
    super(`the job is ${jobStatus}`);
  }
}

export class ProtocolError extends Error {}

export class RunnerClient {
  private readonly base: string;

  constructor(url: string, private readonly token: string, private readonly concurrent = 1) {
    this.base = `${url.replace(/\/+$/, '')}/api/v4`;
  }

  private async call(method: string, path: string, init: { json?: unknown; body?: BodyInit; headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<Response> {
    const headers: Record<string, string> = { 'user-agent': `kiln-runner ${KILN_VERSION}`, ...(init.headers ?? {}) };
    let body = init.body;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    }
    return fetch(`${this.base}${path}`, { method, headers, body, signal: init.signal });
  }

  /** `POST /runners` with a registration token: the new runner's id and authentication token. */
  static async register(url: string, registrationToken: string, attributes: Record<string, unknown>): Promise<{ id: number; token: string }> {
    const client = new RunnerClient(url, registrationToken);
    const response = await client.call('POST', '/runners', { json: { token: registrationToken, info: runnerInfo(1), ...attributes } });
    if (response.status !== 201) throw new ProtocolError(`registration refused: ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: number; token: string };
  }

  /** `POST /runners/verify`: whether the authentication token is a runner's. */
  async verify(): Promise<{ id: number }> {
    const response = await this.call('POST', '/runners/verify', { json: { token: this.token, system_id: systemId() } });
    if (response.status !== 200) throw new ProtocolError(`the runner token is not valid: ${response.status} ${await response.text()}`);
    return (await response.json()) as { id: number };
  }

  /** `POST /jobs/request`: a job, or null with the queue value to send back (long polling). */
  async requestJob(lastUpdate: string | undefined, signal?: AbortSignal): Promise<{ job: JobPayload | null; lastUpdate: string | undefined }> {
    const response = await this.call('POST', '/jobs/request', {
      json: { token: this.token, system_id: systemId(), info: runnerInfo(this.concurrent), ...(lastUpdate ? { last_update: lastUpdate } : {}) },
      signal,
    });
    const next = response.headers.get('x-gitlab-last-update') ?? undefined;
    if (response.status === 201) return { job: (await response.json()) as JobPayload, lastUpdate: next };
    await response.arrayBuffer();
    if (response.status === 204) return { job: null, lastUpdate: next };
    throw new ProtocolError(`jobs/request answered ${response.status}`);
  }

  /**
   * `PUT /jobs/:id`: `running` as a keep-alive, or the end; the server's update interval (seconds, null
   * when it names none). Throws JobGone when the job is no longer running.
   */
  async updateJob(job: JobPayload, result: JobResult | { state: 'running' }): Promise<{ updateInterval: number | null }> {
    const body: Record<string, unknown> = { token: job.token, state: result.state, info: runnerInfo(this.concurrent) };
    if ('failureReason' in result && result.failureReason) body.failure_reason = result.failureReason;
    if ('exitCode' in result && result.exitCode !== undefined) body.exit_code = result.exitCode;
    const response = await this.call('PUT', `/jobs/${job.id}`, { json: body, headers: { 'job-token': job.token } });
    await response.arrayBuffer();
    if (response.status === 403) throw new JobGone(response.headers.get('job-status') ?? 'unknown');
    if (response.status !== 200) throw new ProtocolError(`PUT /jobs/${job.id} answered ${response.status}`);
    return { updateInterval: updateIntervalOf(response) };
  }

  /**
   * `PATCH /jobs/:id/trace` with the bytes from `offset`: the log's new length, or the length the
   * server has (416 with `Range: 0-<length>`) so the caller resends from there, and the server's update
   * interval (seconds, null when it names none).
   */
  async appendTrace(job: JobPayload, offset: number, data: Uint8Array): Promise<{ accepted: boolean; size: number; updateInterval: number | null }> {
    const response = await this.call('PATCH', `/jobs/${job.id}/trace`, {
      body: new Uint8Array(data),
      headers: { 'job-token': job.token, 'content-type': 'text/plain', 'content-range': `${offset}-${offset + data.length - 1}` },
    });
    await response.arrayBuffer();
    const range = /^0-(\d+)$/.exec(response.headers.get('range') ?? '');
    const updateInterval = updateIntervalOf(response);
    if (response.status === 202) return { accepted: true, size: range ? Number(range[1]) : offset + data.length, updateInterval };
    if (response.status === 416 && range) return { accepted: false, size: Number(range[1]), updateInterval };
    if (response.status === 403) throw new JobGone(response.headers.get('job-status') ?? 'unknown');
    throw new ProtocolError(`PATCH /jobs/${job.id}/trace answered ${response.status}`);
  }

  /** `POST /jobs/:id/artifacts` (multipart, as GitLab Runner uploads after `authorize`). */
  async uploadArtifacts(job: JobPayload, archive: Uint8Array, artifact: JobArtifact): Promise<void> {
    const authorize = await this.call('POST', `/jobs/${job.id}/artifacts/authorize`, { json: { token: job.token, filesize: archive.length, artifact_type: 'archive' }, headers: { 'job-token': job.token } });
    await authorize.arrayBuffer();
    if (authorize.status === 403) throw new JobGone(authorize.headers.get('job-status') ?? 'unknown');
    if (authorize.status !== 200) throw new ProtocolError(`artifacts/authorize answered ${authorize.status}`);
    const form = new FormData();
    form.set('artifact_type', artifact.artifact_type ?? 'archive');
    form.set('artifact_format', artifact.artifact_format ?? 'zip');
    if (artifact.expire_in) form.set('expire_in', artifact.expire_in);
    form.set('file', new Blob([new Uint8Array(archive)], { type: 'application/zip' }), `${artifact.name ?? 'artifacts'}.zip`);
    const response = await this.call('POST', `/jobs/${job.id}/artifacts`, { body: form, headers: { 'job-token': job.token } });
    const text = await response.text();
    if (response.status === 403) throw new JobGone(response.headers.get('job-status') ?? 'unknown');
    if (response.status !== 201) throw new ProtocolError(`artifacts upload answered ${response.status} ${text}`);
  }

  /** `GET /jobs/:id/artifacts` of a dependency, with the running job's token. */
  async downloadArtifacts(dependencyId: number, token: string): Promise<Uint8Array> {
    const response = await this.call('GET', `/jobs/${dependencyId}/artifacts`, { headers: { 'job-token': token } });
    if (response.status !== 200) {
      await response.arrayBuffer();
      throw new ProtocolError(`downloading the artifacts of job ${dependencyId} answered ${response.status}`);
    }
    return new Uint8Array(await response.arrayBuffer());
  }
}

let cachedSystemId: string | null = null;
/** GitLab Runner's `system_id`: `s_` and 12 hex digits, one per runner process here. */
function systemId(): string {
  cachedSystemId ??= `s_${Array.from(crypto.getRandomValues(new Uint8Array(6)), (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
  return cachedSystemId;
}
