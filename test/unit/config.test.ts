// Configuration: defaults, validation messages, and the README table staying complete.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { loadConfig, ConfigError } from '../../src/config.js';

const ROOT = new URL('../../', import.meta.url);

describe('loadConfig', () => {
  it('defaults to 127.0.0.1:8080, ./data, SQLite, ultimate and a five-minute job lease', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ host: '127.0.0.1', port: 8080, baseUrl: 'http://127.0.0.1:8080', databaseUrl: null, tier: 'ultimate', jobLeaseMs: 300_000, jobRetentionDays: 7 });
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.storages).toEqual([{ name: 'default', path: `${config.dataDir}/repositories/default`, weight: 100 }]);
  });

  it('derives the base URL from host and port, bracketing IPv6, and strips a trailing slash', () => {
    expect(loadConfig({ KILN_HOST: '::1', KILN_PORT: '9000' }).baseUrl).toBe('http://[::1]:9000');
    expect(loadConfig({ KILN_BASE_URL: 'https://kiln.example.com/' }).baseUrl).toBe('https://kiln.example.com');
  });

  it('reads KILN_JOB_LEASE_MS', () => {
    expect(loadConfig({ KILN_JOB_LEASE_MS: '1500' }).jobLeaseMs).toBe(1500);
  });

  it('keeps the read cache on unless KILN_READ_CACHE=false', () => {
    expect(loadConfig({}).readCache).toBe(true);
    expect(loadConfig({ KILN_READ_CACHE: 'false' }).readCache).toBe(false);
  });

  it('lets only loopback addresses read /-/metrics unless KILN_MONITORING_ALLOWLIST says otherwise', () => {
    expect(loadConfig({}).monitoringAllowlist).toEqual(['127.0.0.0/8', '::1/128']);
    expect(loadConfig({ KILN_MONITORING_ALLOWLIST: '' }).monitoringAllowlist).toEqual(['127.0.0.0/8', '::1/128']);
    expect(loadConfig({ KILN_MONITORING_ALLOWLIST: ' 10.0.0.0/8, 192.168.1.5 ,::1 ' }).monitoringAllowlist).toEqual(['10.0.0.0/8', '192.168.1.5', '::1']);
  });

  for (const [env, message] of [
    [{ KILN_PORT: '-1' }, 'KILN_PORT must be a whole number'],
    [{ KILN_RUN_WORKER: 'maybe' }, 'KILN_RUN_WORKER must be true or false'],
    [{ KILN_STORAGES: '{"a b":{"path":"/x"}}' }, 'shard name "a b"'],
    [{ KILN_STORAGES: '{"a":{"path":"/x","weight":101}}' }, 'weight must be a whole number from 0 to 100'],
    [{ KILN_BASE_URL: 'ftp://kiln' }, 'KILN_BASE_URL must use http or https'],
    [{ KILN_SQLITE_SYNCHRONOUS: 'OFF' }, 'KILN_SQLITE_SYNCHRONOUS must be one of NORMAL, FULL'],
    [{ KILN_MONITORING_ALLOWLIST: '10.0.0.0/33' }, 'KILN_MONITORING_ALLOWLIST must be IP addresses or CIDR ranges'],
    [{ KILN_MONITORING_ALLOWLIST: 'localhost' }, 'KILN_MONITORING_ALLOWLIST must be IP addresses or CIDR ranges'],
    [{ KILN_MONITORING_ALLOWLIST: '::1/129' }, 'got "::1/129"'],
  ] as const) {
    it(`rejects ${JSON.stringify(env)} with a ConfigError naming the variable`, () => {
      expect(() => loadConfig(env as Record<string, string>)).toThrow(ConfigError);
      expect(() => loadConfig(env as Record<string, string>)).toThrow(message);
    });
  }
});

describe('the configuration reference (docs/operations/configuration.md)', () => {
  it('documents every KILN_* variable that src/config.ts reads', () => {
    const source = readFileSync(new URL('src/config.ts', ROOT), 'utf8');
    const readme = readFileSync(new URL('docs/operations/configuration.md', ROOT), 'utf8');
    const names = [...new Set([...source.matchAll(/['"`](KILN_[A-Z0-9_]+)['"`]|env\.(KILN_[A-Z0-9_]+)/g)].map((match) => match[1] ?? match[2]))];
    expect(names.length).toBeGreaterThan(10);
    const missing = names.filter((name) => !readme.includes(`| \`${name}\` |`));
    expect(missing).toEqual([]);
  });
});
