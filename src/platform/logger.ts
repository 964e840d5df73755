// JSON log lines with request ids and no secrets: tokens, passwords, keys and `access_token=` in URLs.
import pino, { type Logger } from 'pino';

const SECRET_QUERY = /([?&](?:access_token|private_token|bearer_token|token|code|client_secret|password|refresh_token|id_token_hint)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[REDACTED]');
}

export const redactPaths = [
  'req.headers.authorization',
  'req.headers["private-token"]',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.access_token',
  '*.refresh_token',
  '*.client_secret',
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: { paths: redactPaths, censor: '[REDACTED]' } }, destination);
}

export const requestSerializers = {
  req(request: { method: string; url: string; id: string; ip?: string; headers?: Record<string, unknown> }) {
    return { id: request.id, method: request.method, url: redactUrl(request.url), remoteAddress: request.ip };
  },
};

type LogMethod = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * Fastify gives every request a child logger carrying its id. pino's child() serialises the
 * bindings and re-applies the redaction paths, a measurable share of a fast request's CPU and
 * garbage (docs/performance.md), while most requests never log. This stand-in makes the real child
 * on first use.
 */
export class LazyChildLogger {
  private made: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: pino.Bindings,
    private readonly options: pino.ChildLoggerOptions,
  ) {}

  private real(): Logger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.made?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  child(bindings: pino.Bindings, options?: pino.ChildLoggerOptions): Logger {
    return this.real().child(bindings, options);
  }

  silent(): void {}

  private log(method: LogMethod, args: unknown[]): void {
    if (!this.parent.isLevelEnabled(method)) return;
    (this.real()[method] as (...values: unknown[]) => void)(...args);
  }

  fatal(...args: unknown[]): void {
    this.log('fatal', args);
  }

  error(...args: unknown[]): void {
    this.log('error', args);
  }

  warn(...args: unknown[]): void {
    this.log('warn', args);
  }

  info(...args: unknown[]): void {
    this.log('info', args);
  }

  debug(...args: unknown[]): void {
    this.log('debug', args);
  }

  trace(...args: unknown[]): void {
    this.log('trace', args);
  }
}
