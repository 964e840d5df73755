// The only reader of process.env. Every setting is typed, validated once, and documented in
// docs/operations/configuration.md. A bad value is a ConfigError: one line naming the variable and the
// value (secrets are described, never echoed), which `kiln` prints before it writes anything.
import { resolve, join } from 'node:path';
import { isIP } from 'node:net';

export type Tier = 'free' | 'premium' | 'ultimate';

export interface StorageShard {
  name: string;
  path: string;
  weight: number;
}

export interface Config {
  host: string;
  port: number;
  baseUrl: string;
  dataDir: string;
  databaseUrl: string | null;
  tier: Tier;
  storages: StorageShard[];
  initialRootPassword: string | null;
  initialRootToken: string | null;
  logLevel: string;
  /** `text` for people (a terminal), `json` for log collectors; `auto` picks by whether stdout is a terminal. */
  logFormat: 'auto' | 'pretty' | 'json';
  accessTokenLifetimeSeconds: number;
  allowImplicitGrant: boolean;
  allowInsecureRedirectUris: boolean;
  /** GitLab's protected-paths throttle: sign-in, password grant and authorize POSTs per IP per minute. */
  protectedPathsPerMinute: number;
  sqliteSynchronous: 'NORMAL' | 'FULL';
  /** The SQLite row cache (platform/db/reads.ts); off only to measure or rule it out. */
  readCache: boolean;
  eventRetentionDays: number;
  workerPollMs: number;
  /** How long a claimed job is leased to its worker; a job whose worker died (kill -9) runs again after this. */
  jobLeaseMs: number;
  /** Finished jobs and stale rate-limit windows older than this are pruned by the housekeeping job. */
  jobRetentionDays: number;
  /** How long a runner's `POST /jobs/request` waits for a job when it has seen the queue's last value (long polling). */
  ciLongPollMs: number;
  /** `kiln serve` runs a `kiln runner` child as an instance runner (KILN_BUILTIN_RUNNER), with this many lanes. */
  builtinRunner: boolean;
  builtinRunnerConcurrent: number;
  /** Addresses and CIDR ranges that may read /-/metrics (GitLab's monitoring whitelist); others get 404. */
  monitoringAllowlist: string[];
  /**
   * Reverse proxies (addresses, CIDR ranges) whose X-Forwarded-For names the client: behind one,
   * throttles and the monitoring allow-list see the client's address instead of the proxy's.
   */
  trustedProxies: string[];
  runWorker: boolean;
  /** Outgoing mail: `smtp://user:pass@host:587` or `smtps://…`; null writes .eml files under <data>/mail instead. */
  smtpUrl: string | null;
  /** The From address of notification e-mail (the acting user's name is shown with it). */
  emailFrom: string;
  /** Sent and dead messages of the outbox (and their .eml files) older than this are pruned daily. */
  mailRetentionDays: number;
  /** The SSH server's port on KILN_HOST (KILN_SSH_PORT; 0 picks a free one), or null when it is off. */
  sshPort: number | null;
  /** KILN_SSH_PORT was set: a busy port then stops Kiln, where the default only warns. */
  sshPortExplicit: boolean;
  /** The host clone URLs name (KILN_SSH_HOST; default: the base URL's host). */
  sshHost: string;
  /** The port clone URLs name (KILN_SSH_HOST's port; default: KILN_SSH_PORT, or 22 when SSH is off). */
  sshAdvertisedPort: number;
  /** The prefix of `ssh_url_to_repo`: `git@host:` on port 22, else `ssh://git@host:port/`. */
  sshUrlPrefix: string;
  /** A Markdown text's time budget on a render worker; over it, the text is shown plain (markdown/bounded-render.ts). */
  markdownRenderMs: number;
  /** Worker threads rendering Markdown (at most the number of CPUs). */
  markdownWorkers: number;
  /** How long a client may take to send a request's headers (KILN_HEADERS_TIMEOUT_MS). */
  headersTimeoutMs: number;
  /** How long a client may take to send a whole request, body included; git and LFS transfers are exempt (KILN_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open between requests (KILN_KEEP_ALIVE_TIMEOUT_MS). */
  keepAliveTimeoutMs: number;
  /** Git LFS on this instance (KILN_LFS_ENABLED); off, the LFS endpoints answer 501 as GitLab's do. */
  lfsEnabled: boolean;
  /** Where LFS objects are stored, once per oid for the whole instance; every node must reach it (KILN_LFS_PATH). */
  lfsPath: string;
  /** Where Markdown uploads are stored, a directory per project; every node must reach it (KILN_UPLOADS_PATH). */
  uploadsPath: string;
  /** The largest LFS object accepted, in bytes (KILN_LFS_MAX_OBJECT_BYTES). */
  lfsMaxObjectBytes: number;
  /** The most LFS content one project may hold, in bytes; 0: no limit (KILN_LFS_MAX_PROJECT_BYTES). */
  lfsMaxProjectBytes: number;
}

export class ConfigError extends Error {}

/** GitLab's minimum password length (accounts/passwords.ts), checked here so a bad variable stops Kiln before it writes. */
const MIN_ROOT_PASSWORD_LENGTH = 8;

/** A URL as it may be shown: without the password. */
export function withoutPassword(raw: string): string {
  try {
    const url = new URL(raw);
    if (!url.password) return raw;
    url.password = '***';
    return url.toString();
  } catch {
    return raw.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@');
  }
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(values as readonly string[]).includes(raw)) throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
  return raw as T;
}

function parseStorages(raw: string | undefined, dataDir: string): StorageShard[] {
  if (raw === undefined || raw === '') return [{ name: 'default', path: join(dataDir, 'repositories', 'default'), weight: 100 }];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError(`KILN_STORAGES must be JSON like {"default":{"path":"/srv/kiln/default","weight":100}}, got ${JSON.stringify(raw)}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed) || Object.keys(parsed).length === 0) {
    throw new ConfigError(`KILN_STORAGES must be a non-empty JSON object of shard name to {path, weight}, got ${JSON.stringify(raw)}`);
  }
  return Object.entries(parsed as Record<string, unknown>).map(([name, value]) => {
    const shard = value as { path?: unknown; weight?: unknown };
    if (!/^[A-Za-z0-9_.-]+$/.test(name)) throw new ConfigError(`KILN_STORAGES: shard name "${name}" may use only letters, digits, _ . -`);
    if (typeof shard?.path !== 'string' || shard.path === '') throw new ConfigError(`KILN_STORAGES: shard "${name}" needs a "path" string, got ${JSON.stringify(shard?.path ?? null)}`);
    const weight = shard.weight === undefined ? 100 : shard.weight;
    if (typeof weight !== 'number' || !Number.isInteger(weight) || weight < 0 || weight > 100) {
      throw new ConfigError(`KILN_STORAGES: shard "${name}" weight must be a whole number from 0 to 100, got ${JSON.stringify(weight)}`);
    }
    return { name, path: resolve(shard.path), weight };
  });
}

/** GitLab's default monitoring whitelist: the loopback addresses. */
const DEFAULT_MONITORING_ALLOWLIST = '127.0.0.0/8,::1/128';

/** Comma-separated IP addresses or CIDR ranges (`10.0.0.0/8`, `::1`). */
function parseAllowlist(env: Env, name: string, fallback: string): string[] {
  const raw = env[name] === undefined || env[name] === '' ? fallback : env[name];
  const entries = raw.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  for (const entry of entries) {
    const [address, prefix, extra] = entry.split('/');
    const family = isIP(address);
    const bits = family === 4 ? 32 : 128;
    if (!family || extra !== undefined || (prefix !== undefined && (!/^\d{1,3}$/.test(prefix) || Number(prefix) > bits))) {
      throw new ConfigError(`${name} must be IP addresses or CIDR ranges separated by commas (like 127.0.0.0/8,::1), got "${entry}"`);
    }
  }
  return entries;
}

function parseBaseUrl(raw: string | undefined, host: string, port: number): string {
  const fallback = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const value = raw === undefined || raw === '' ? fallback : raw;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`KILN_BASE_URL must be an absolute http(s) URL, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`KILN_BASE_URL must use http or https, got "${value}"`);
  return url.toString().replace(/\/+$/, '');
}

/**
 * An address to listen on: an IPv4 or IPv6 address, or a host name. A dotted string of digits that
 * is no IPv4 address (999.1.1.1) is a typo, not a host name.
 */
function parseHost(raw: string | undefined): string {
  if (raw === undefined || raw === '') return '127.0.0.1';
  if (isIP(raw)) return raw;
  const hostName = /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
  if (!hostName.test(raw) || /^[\d.]+$/.test(raw)) throw new ConfigError(`KILN_HOST must be an IP address or a host name, got "${raw}"`);
  return raw;
}

function rootPassword(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  if (raw.length < MIN_ROOT_PASSWORD_LENGTH) {
    throw new ConfigError(`KILN_INITIAL_ROOT_PASSWORD must be at least ${MIN_ROOT_PASSWORD_LENGTH} characters, got ${raw.length}`);
  }
  return raw;
}

function smtpUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    /* reported below */
  }
  if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '') {
    throw new ConfigError(`KILN_SMTP_URL must be an smtp:// or smtps:// URL (like smtp://user:pass@mail.example.com:587), got "${withoutPassword(raw)}"`);
  }
  return raw;
}

/** `Name <address>` or a bare address; the default is kiln@ the base URL's host, as GitLab's gitlab@host. */
function emailFrom(raw: string | undefined, baseUrl: string): string {
  if (raw === undefined || raw === '') return `kiln@${new URL(baseUrl).hostname}`;
  const address = /<([^<>]+)>\s*$/.exec(raw)?.[1] ?? raw;
  if (!/^[^\s@<>]+@[^\s@<>]+$/.test(address.trim())) throw new ConfigError(`KILN_EMAIL_FROM must be an e-mail address (like kiln@example.com or "Kiln <kiln@example.com>"), got "${raw}"`);
  return raw.trim();
}

/** Kiln's embedded SSH server answers here unless KILN_SSH_PORT says otherwise (docs/decisions.md). */
export const DEFAULT_SSH_PORT = 2222;

function sshPort(raw: string | undefined): number | null {
  if (raw === undefined || raw === '') return DEFAULT_SSH_PORT;
  if (/^(off|false|no|disabled)$/i.test(raw)) return null;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) throw new ConfigError(`KILN_SSH_PORT must be a port from 0 to 65535 or "off", got "${raw}"`);
  return Number(raw);
}

/** KILN_SSH_HOST: `host`, `host:port` or `[v6 address]:port`. */
function sshAddress(raw: string | undefined, baseUrl: string, port: number | null): { host: string; port: number } {
  const fallbackPort = port === null || port === 0 ? 22 : port;
  if (raw === undefined || raw === '') return { host: new URL(baseUrl).hostname.replace(/^\[|\]$/g, ''), port: fallbackPort };
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+|[0-9A-Fa-f:]*:[0-9A-Fa-f:.]*))(?::(\d{1,5}))?$/.exec(raw);
  const bracketed = match?.[1];
  const plain = match?.[2];
  // A bare IPv6 address has colons of its own: only a bracketed one may carry a port.
  const host = bracketed ?? plain;
  const portText = match?.[3];
  if (!match || !host || (plain?.includes(':') && !isIP(plain)) || (portText !== undefined && (Number(portText) < 1 || Number(portText) > 65535))) {
    throw new ConfigError(`KILN_SSH_HOST must be a host name or address, optionally with :port (like git.example.com or git.example.com:2222), got "${raw}"`);
  }
  return { host, port: portText === undefined ? fallbackPort : Number(portText) };
}

function sshUrlPrefix(host: string, port: number): string {
  const named = host.includes(':') ? `[${host}]` : host;
  return port === 22 ? `git@${named}:` : `ssh://git@${named}:${port}/`;
}

export function loadConfig(env: Env = process.env): Config {
  const host = parseHost(env.KILN_HOST);
  const port = integer(env, 'KILN_PORT', 8080, 0, 65535);
  if (env.KILN_DATA_DIR !== undefined && env.KILN_DATA_DIR.includes('\0')) throw new ConfigError('KILN_DATA_DIR must be a path, got a value with a NUL byte');
  const dataDir = resolve(env.KILN_DATA_DIR || './data');
  const databaseUrl = env.KILN_DATABASE_URL || null;
  if (databaseUrl !== null && !/^postgres(ql)?:\/\/./.test(databaseUrl)) {
    throw new ConfigError(`KILN_DATABASE_URL must be a postgres:// URL (unset it for the embedded SQLite database), got "${withoutPassword(databaseUrl)}"`);
  }
  const baseUrl = parseBaseUrl(env.KILN_BASE_URL, host, port);
  const ssh = sshPort(env.KILN_SSH_PORT);
  const advertised = sshAddress(env.KILN_SSH_HOST, baseUrl, ssh);
  return {
    host,
    port,
    baseUrl,
    dataDir,
    databaseUrl,
    tier: oneOf(env, 'KILN_TIER', ['free', 'premium', 'ultimate'] as const, 'ultimate'),
    storages: parseStorages(env.KILN_STORAGES, dataDir),
    initialRootPassword: rootPassword(env.KILN_INITIAL_ROOT_PASSWORD),
    initialRootToken: env.KILN_INITIAL_ROOT_TOKEN || null,
    logLevel: oneOf(env, 'KILN_LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    // `text` was this format's first name; it still means `pretty`.
    logFormat: oneOf({ ...env, KILN_LOG_FORMAT: env.KILN_LOG_FORMAT === 'text' ? 'pretty' : env.KILN_LOG_FORMAT }, 'KILN_LOG_FORMAT', ['auto', 'json', 'pretty'] as const, 'auto'),
    accessTokenLifetimeSeconds: integer(env, 'KILN_ACCESS_TOKEN_LIFETIME', 7200, 60, 31_536_000),
    allowImplicitGrant: boolean(env, 'KILN_ALLOW_IMPLICIT_GRANT', true),
    allowInsecureRedirectUris: boolean(env, 'KILN_ALLOW_HTTP_REDIRECT_URIS', true),
    protectedPathsPerMinute: integer(env, 'KILN_PROTECTED_PATHS_PER_MINUTE', 10, 1, 1_000_000),
    sqliteSynchronous: oneOf(env, 'KILN_SQLITE_SYNCHRONOUS', ['NORMAL', 'FULL'] as const, 'NORMAL'),
    readCache: boolean(env, 'KILN_READ_CACHE', true),
    eventRetentionDays: integer(env, 'KILN_EVENT_RETENTION_DAYS', 730, 1, 36_500),
    workerPollMs: integer(env, 'KILN_WORKER_POLL_MS', 500, 10, 60_000),
    jobLeaseMs: integer(env, 'KILN_JOB_LEASE_MS', 5 * 60_000, 100, 24 * 3_600_000),
    jobRetentionDays: integer(env, 'KILN_JOB_RETENTION_DAYS', 7, 1, 36_500),
    ciLongPollMs: integer(env, 'KILN_CI_LONG_POLL_MS', 50_000, 0, 120_000),
    builtinRunner: boolean(env, 'KILN_BUILTIN_RUNNER', false),
    builtinRunnerConcurrent: integer(env, 'KILN_BUILTIN_RUNNER_CONCURRENT', 1, 1, 64),
    monitoringAllowlist: parseAllowlist(env, 'KILN_MONITORING_ALLOWLIST', DEFAULT_MONITORING_ALLOWLIST),
    trustedProxies: parseAllowlist(env, 'KILN_TRUSTED_PROXIES', ''),
    runWorker: boolean(env, 'KILN_RUN_WORKER', true),
    smtpUrl: smtpUrl(env.KILN_SMTP_URL),
    emailFrom: emailFrom(env.KILN_EMAIL_FROM, parseBaseUrl(env.KILN_BASE_URL, host, port)),
    mailRetentionDays: integer(env, 'KILN_MAIL_RETENTION_DAYS', 30, 1, 36_500),
    sshPort: ssh,
    sshPortExplicit: env.KILN_SSH_PORT !== undefined && env.KILN_SSH_PORT !== '',
    sshHost: advertised.host,
    sshAdvertisedPort: advertised.port,
    sshUrlPrefix: sshUrlPrefix(advertised.host, advertised.port),
    markdownRenderMs: integer(env, 'KILN_MARKDOWN_RENDER_MS', 1500, 50, 60_000),
    markdownWorkers: integer(env, 'KILN_MARKDOWN_WORKERS', 2, 1, 64),
    headersTimeoutMs: integer(env, 'KILN_HEADERS_TIMEOUT_MS', 60_000, 100, 3_600_000),
    requestTimeoutMs: integer(env, 'KILN_REQUEST_TIMEOUT_MS', 300_000, 100, 24 * 3_600_000),
    keepAliveTimeoutMs: integer(env, 'KILN_KEEP_ALIVE_TIMEOUT_MS', 72_000, 100, 3_600_000),
    lfsEnabled: boolean(env, 'KILN_LFS_ENABLED', true),
    lfsPath: resolve(dataDir, env.KILN_LFS_PATH || join('shared', 'lfs-objects')),
    uploadsPath: resolve(dataDir, env.KILN_UPLOADS_PATH || join('shared', 'uploads')),
    lfsMaxObjectBytes: integer(env, 'KILN_LFS_MAX_OBJECT_BYTES', 5 * 1024 ** 3, 1, Number.MAX_SAFE_INTEGER),
    lfsMaxProjectBytes: integer(env, 'KILN_LFS_MAX_PROJECT_BYTES', 0, 0, Number.MAX_SAFE_INTEGER),
  };
}
