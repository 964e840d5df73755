// JSON log lines with request ids and no secrets: tokens, passwords, keys and credentials in URLs.
import pino, { type Logger } from 'pino';

/**
 * A query parameter whose value is a secret: anything naming a token, secret, password or key, and
 * OAuth's `code`. Matched on the name as the server reads it (percent-decoded, any case, without
 * `[…]`), so `private%5Ftoken`, `PRIVATE_TOKEN` and `access_token[]` are caught as well: Fastify
 * decodes `private%5Ftoken` to `private_token` and accepts it as a credential.
 */
const SECRET_NAME = /token|secret|passw|otp|^(?:code|key|sig|signature)$/;

/** Percent-decoding that never throws, repeated until stable (a name may be encoded twice). */
function looselyDecoded(name: string): string {
  let decoded = name;
  for (let round = 0; round < 4; round += 1) {
    const next = decoded.replace(/\+/g, ' ').replace(/%([0-9a-f]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (next === decoded) break;
    decoded = next;
  }
  return decoded;
}

/** The name as the server reads it, when it names a secret; null otherwise. */
function secretName(rawName: string): string | null {
  const name = looselyDecoded(rawName).toLowerCase();
  const bracket = name.indexOf('[');
  return SECRET_NAME.test((bracket === -1 ? name : name.slice(0, bracket)).trim()) ? name : null;
}

/** The URL with the value of every secret query parameter replaced by `[REDACTED]`. */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query === -1) return url;
  const parts = url.slice(query + 1).split(/([&;])/);
  for (let i = 0; i < parts.length; i += 2) {
    const equals = parts[i].indexOf('=');
    const rawName = equals === -1 ? parts[i] : parts[i].slice(0, equals);
    const name = rawName === '' ? null : secretName(rawName);
    if (name === null) continue;
    // An encoded `=` in the name (`private_token%3Dglpat…`) would carry the value inside it.
    parts[i] = name.includes('=') ? '[REDACTED]' : `${rawName}=[REDACTED]`;
  }
  return url.slice(0, query + 1) + parts.join('');
}

/** Keys whose values are secrets wherever a logged object carries them. */
const SECRET_KEYS = ['password', 'token', 'access_token', 'refresh_token', 'client_secret', 'private_token', 'authenticity_token'];

export const redactPaths = [
  'req.headers.authorization',
  'req.headers["private-token"]',
  'req.headers["job-token"]',
  'req.headers["proxy-authorization"]',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  // Each secret key at the top level of a logged object as well as one level down: pino's `*.x`
  // does not match a top-level `x` (log.info({ password }) would otherwise write it).
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`]),
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
