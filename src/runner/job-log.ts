// A job's log as the runner keeps and sends it: output is collected with masked variables' values
// replaced by `[MASKED]` (line by line, so a value is never split across two sends), and appended to
// the server's copy with `PATCH /jobs/:id/trace` and Content-Range, as GitLab Runner does. A 416 names
// the length the server has and the runner resends from there; a 403 means the job was canceled (or
// ended) on the server, which the caller learns through `onGone`. How long the runner waits between
// sends is the server's to say, as GitLab Runner takes it: each PATCH and PUT answer's
// `X-GitLab-Trace-Update-Interval` sets the wait before the next send (at most `maxIntervalMs`);
// until the first answer names one, the runner's own `intervalMs`. The last send, at the job's end,
// goes at once whatever the interval.
import { JobGone, type JobPayload, type RunnerClient } from './protocol-client.js';

/** Kept by the runner at most (the server stops at 16 MiB with `trace_size_exceeded`). */
const KEPT_LIMIT = 17 * 1024 * 1024;
/** Sent per request at most (the server takes 4 MiB; GitLab Runner sends 1 MiB). */
const SEND_LIMIT = 1024 * 1024;
/** The longest wait between sends a server may ask for (GitLab Runner's MaxUpdateInterval, 15 minutes). */
export const MAX_TRACE_INTERVAL_MS = 15 * 60 * 1000;

export interface JobLogOptions {
  /** The wait between sends until the server names one. */
  intervalMs: number;
  /** The longest wait the server's interval may set (MAX_TRACE_INTERVAL_MS unless the runner is told less). */
  maxIntervalMs?: number;
  keepAliveMs: number;
  onGone: (status: string) => void;
}

export class JobLog {
  private readonly masks: string[];
  private chunks: Buffer[] = [];
  private size = 0;
  private sent = 0;
  private partial = '';
  private truncated = false;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private intervalMs: number;
  private sending: Promise<void> = Promise.resolve();
  private lastSendAt = Date.now();

  constructor(
    private readonly client: RunnerClient,
    private readonly job: JobPayload,
    private readonly options: JobLogOptions,
  ) {
    this.intervalMs = options.intervalMs;
    // Longer values first, so a value that contains another is masked whole.
    this.masks = job.variables.filter((variable) => variable.masked && variable.value.length >= 8).map((variable) => variable.value).sort((a, b) => b.length - a.length);
  }

  start(): void {
    this.schedule();
  }

  /** The next send, after the current interval; then the one after it, at the interval as it is then. */
  private schedule(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      void this.flush(false).then(() => this.schedule());
    }, this.intervalMs);
  }

  /** An answer's `X-GitLab-Trace-Update-Interval` (seconds) sets the wait before the next sends. */
  private heed(updateInterval: number | null): void {
    if (updateInterval === null) return;
    this.intervalMs = Math.min(updateInterval * 1000, this.options.maxIntervalMs ?? MAX_TRACE_INTERVAL_MS);
  }

  /** A line (or part of one) of the job's output. */
  write(text: string): void {
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    if (lines.length > 0) this.keep(`${lines.map((line) => this.mask(line)).join('\n')}\n`);
  }

  /** A line of the runner's own (in GitLab Runner's colours: green for steps, yellow for warnings, red for errors). */
  say(text: string, colour: 'green' | 'yellow' | 'red' | 'plain' = 'plain'): void {
    const codes = { green: '\u001b[32;1m', yellow: '\u001b[0;33m', red: '\u001b[31;1m', plain: '' };
    this.write(`${codes[colour]}${text}${colour === 'plain' ? '' : '\u001b[0;m'}\n`);
  }

  /** GitLab Runner's collapsible section around a step: its marker, then its header line (green). */
  sectionStart(name: string, header: string): void {
    this.write(`section_start:${Math.floor(Date.now() / 1000)}:${name}\r\u001b[0K`);
    this.say(header, 'green');
  }

  sectionEnd(name: string): void {
    this.write(`section_end:${Math.floor(Date.now() / 1000)}:${name}\r\u001b[0K\n`);
  }

  private mask(line: string): string {
    let masked = line;
    for (const value of this.masks) masked = masked.split(value).join('[MASKED]');
    return masked;
  }

  private keep(text: string): void {
    if (this.truncated) return;
    const bytes = Buffer.from(text);
    if (this.size + bytes.length > KEPT_LIMIT) {
      this.truncated = true;
      return;
    }
    this.chunks.push(bytes);
    this.size += bytes.length;
  }

  /** Sends what the server lacks (and the pending partial line when `final`); one send at a time. */
  flush(final: boolean): Promise<void> {
    this.sending = this.sending.then(() => this.send(final));
    return this.sending;
  }

  private async send(final: boolean): Promise<void> {
    if (final && this.partial) {
      this.keep(this.mask(this.partial));
      this.partial = '';
    }
    try {
      if (this.sent >= this.size) {
        // Nothing new: a `PUT state=running` now and then tells the server the runner is alive.
        if (!final && Date.now() - this.lastSendAt >= this.options.keepAliveMs) {
          this.lastSendAt = Date.now();
          this.heed((await this.client.updateJob(this.job, { state: 'running' })).updateInterval);
        }
        return;
      }
      while (this.sent < this.size) {
        if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks)];
        const piece = this.chunks[0].subarray(this.sent, Math.min(this.size, this.sent + SEND_LIMIT));
        const answer = await this.client.appendTrace(this.job, this.sent, piece);
        this.lastSendAt = Date.now();
        this.heed(answer.updateInterval);
        // On 416 the server says how much it has: resend from there (never beyond what was written).
        this.sent = Math.min(answer.size, this.size);
        if (!answer.accepted && answer.size > this.size) return;
      }
    } catch (error) {
      if (error instanceof JobGone) this.options.onGone(error.jobStatus);
      // Other failures (the server unreachable for a moment): the next flush tries again.
    }
  }

  /** Stops the timer and sends the rest at once. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush(true);
  }

  /** The whole log as kept (for the runner's own output when it runs in the foreground). */
  text(): string {
    return Buffer.concat(this.chunks).toString();
  }
}
