import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { parseGenericAlert, genericSeverity, DEFAULT_TITLE } from '../../src/alerts/payload/generic.js';
import { explicitFingerprint, payloadFingerprint } from '../../src/alerts/payload/fingerprint.js';
import { isAlertmanagerWebhook, parsePrometheusAlert, prometheusSeverity, fullQuery } from '../../src/alerts/payload/prometheus.js';
import { parseGroupingKey, parsePayload } from '../../src/alerts/payload/parse-payload.js';
import { parseHosts, parseTime, truncate, canonicalJson } from '../../src/alerts/payload/values.js';
import { jsonDepth, payloadTooLarge } from '../../src/alerts/payload/limits.js';
import { mappingProblems } from '../../src/alerts/payload/mapping.js';

const NOW = Date.parse('2026-11-22T08:00:00.000Z');
const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');
const generic = (payload: Record<string, unknown>, paid = true) => parseGenericAlert(payload, { now: NOW, payloadFingerprints: paid });

describe('generic payload: title', () => {
  it.each([
    [{}, DEFAULT_TITLE],
    [{ title: '' }, DEFAULT_TITLE],
    [{ title: '   ' }, DEFAULT_TITLE],
    [{ title: null }, DEFAULT_TITLE],
    [{ title: 'Disk full' }, 'Disk full'],
    [{ title: 42 }, '42'],
    [{ title: 'x'.repeat(200) }, 'x'.repeat(200)],
    [{ title: 'x'.repeat(201) }, `${'x'.repeat(197)}...`],
  ])('%j gives title %s', (payload, title) => {
    expect(generic(payload).title).toBe(title);
  });
});

describe('generic payload: severity (case-insensitive, default critical)', () => {
  it.each([
    [undefined, 'critical'], ['', 'critical'], ['critical', 'critical'], ['HIGH', 'high'], ['Medium', 'medium'],
    ['low', 'low'], ['INFO', 'info'], ['unknown', 'unknown'], ['Unknown', 'unknown'], ['severe', 'critical'], [3, 'critical'], [{ a: 1 }, 'critical'],
  ])('%j → %s', (value, severity) => {
    expect(genericSeverity(value)).toBe(severity);
    expect(generic(value === undefined ? {} : { severity: value }).severity).toBe(severity);
  });
});

describe('generic payload: times', () => {
  it.each([
    [{}, NOW, null],
    [{ start_time: 'not a time' }, NOW, null],
    [{ start_time: '2026-11-20T10:00:00Z' }, Date.parse('2026-11-20T10:00:00Z'), null],
    [{ start_time: '2026-11-20T10:00:00.123456789+01:00' }, Date.parse('2026-11-20T09:00:00.123Z'), null],
    [{ end_time: '2026-11-21T10:00:00Z' }, NOW, Date.parse('2026-11-21T10:00:00Z')],
    [{ end_time: 'garbage' }, NOW, null],
    [{ end_time: 1795000000000 }, NOW, 1795000000000],
    [{ end_time: '1795000000000' }, NOW, 1795000000000],
  ])('%j → started %s ended %s', (payload, started, ended) => {
    const alert = generic(payload);
    expect(alert.startedAt).toBe(started);
    expect(alert.endedAt).toBe(ended);
  });
});

describe('generic payload: text fields are truncated like Ruby String#truncate', () => {
  it.each([
    ['description', 1000],
    ['service', 100],
    ['monitoring_tool', 100],
  ] as const)('%s at %i characters', (field, max) => {
    const key = field === 'monitoring_tool' ? 'monitoringTool' : field;
    expect((generic({ [field]: 'a'.repeat(max) }) as any)[key]).toBe('a'.repeat(max));
    expect((generic({ [field]: 'a'.repeat(max + 1) }) as any)[key]).toBe(`${'a'.repeat(max - 3)}...`);
    expect((generic({}) as any)[key]).toBeNull();
  });
  it('truncate counts characters, not bytes', () => {
    expect(truncate('ééééé', 4)).toBe('é...');
  });
});

describe('generic payload: hosts', () => {
  it.each([
    [undefined, []],
    ['web-1', ['web-1']],
    [['web-1', 'web-2'], ['web-1', 'web-2']],
    [[['a', ['b']], 'c'], ['a', 'b', 'c']],
    [['a', '', null, 7], ['a', '7']],
    [['x'.repeat(250), 'y'.repeat(10)], ['x'.repeat(250), 'yyyyy']],
    [['x'.repeat(300)], ['x'.repeat(255)]],
    [['x'.repeat(255), 'z'], ['x'.repeat(255)]],
  ])('%j → %j', (value, hosts) => {
    expect(parseHosts(value)).toEqual(hosts);
  });
});

describe('generic payload: environment and extra fields', () => {
  it('reads gitlab_environment_name and keeps the whole payload', () => {
    const payload = { gitlab_environment_name: 'production', custom: { nested: [1, { deep: true }] } };
    const alert = generic(payload);
    expect(alert.environmentName).toBe('production');
    expect(alert.payload).toEqual(payload);
  });
});

describe('fingerprints', () => {
  it.each([
    ['abc', sha1('abc')],
    [123, sha1('123')],
    [['a', 'b'], sha1('ab')],
    [['a', ['b', 1]], sha1('ab1')],
    ['', null],
    [[], null],
    [['', ''], null],
  ])('explicit %j', (value, expected) => {
    expect(explicitFingerprint(value)).toBe(expected);
  });

  it('gives each text its own digest when texts repeat (digests are kept per text)', () => {
    const texts = ['fp-1', 'fp-2', '7', 'fp-1', '7', 'fp-2'];
    expect(texts.map((text) => explicitFingerprint(text))).toEqual(texts.map(sha1));
    expect(explicitFingerprint(7)).toBe(sha1('7'));
  });

  it('uses an explicit fingerprint in every tier', () => {
    expect(generic({ fingerprint: 'abc', title: 't' }, false).fingerprint).toBe(sha1('abc'));
    expect(generic({ fingerprint: 'abc', title: 'other' }, true).fingerprint).toBe(sha1('abc'));
  });

  it('derives one from the payload without start_time, end_time and hosts on the paid tier only', () => {
    const a = generic({ title: 'CPU', service: 'api', start_time: '2026-01-01T00:00:00Z', hosts: ['a'] });
    const b = generic({ service: 'api', title: 'CPU', start_time: '2026-02-02T00:00:00Z', hosts: 'b', end_time: '2026-03-03T00:00:00Z' });
    const c = generic({ title: 'CPU', service: 'web' });
    expect(a.fingerprint).toMatch(/^[0-9a-f]{40}$/);
    expect(a.fingerprint).toBe(b.fingerprint);
    expect(c.fingerprint).not.toBe(a.fingerprint);
    expect(generic({ title: 'CPU', service: 'api' }, false).fingerprint).toBeNull();
  });

  it('gives no derived fingerprint when only volatile or blank values remain', () => {
    expect(payloadFingerprint({ start_time: 'x', hosts: ['a'], title: '' })).toBeNull();
    expect(generic({}).fingerprint).toBeNull();
  });

  it('canonical JSON ignores key order at every level', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 1, x: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"x":2,"y":1}]},"b":1}');
  });
});

describe('custom mapping (paid tier)', () => {
  const mapping = {
    title: { path: ['alert', 'name'], type: 'string' as const },
    severity: { path: ['alert', 'level'], type: 'string' as const },
    start_time: { path: ['times', 0], type: 'datetime' as const },
    end_time: { path: ['closedAt'], type: 'datetime' as const },
    hosts: { path: ['where'], type: 'array' as const },
    fingerprint: { path: ['alert', 'id'], type: 'string' as const },
  };
  const options = { now: NOW, payloadFingerprints: true, mapping };

  it('takes each mapped field from its path', () => {
    const alert = parseGenericAlert({ alert: { name: 'Queue stuck', level: 'LOW', id: 'q-1' }, times: ['2026-11-01T00:00:00Z'], where: ['h1'] }, options);
    expect(alert).toMatchObject({ title: 'Queue stuck', severity: 'low', startedAt: Date.parse('2026-11-01T00:00:00Z'), hosts: ['h1'], fingerprint: sha1('q-1'), endedAt: null });
  });

  it('falls back to the standard key when the mapped path gives nothing', () => {
    const alert = parseGenericAlert({ title: 'Plain title', alert: {} }, options);
    expect(alert.title).toBe('Plain title');
  });

  it('a mapped end time resolves', () => {
    expect(parseGenericAlert({ closedAt: '2026-11-02T00:00:00Z' }, options).endedAt).toBe(Date.parse('2026-11-02T00:00:00Z'));
  });

  it('leaves mapped volatile values out of the derived fingerprint', () => {
    const noIdMapping = { start_time: { path: ['meta', 'at'], type: 'datetime' as const } };
    const a = parseGenericAlert({ title: 'x', meta: { at: '2026-01-01T00:00:00Z', zone: 'eu' } }, { ...options, mapping: noIdMapping });
    const b = parseGenericAlert({ title: 'x', meta: { at: '2026-01-02T00:00:00Z', zone: 'eu' } }, { ...options, mapping: noIdMapping });
    expect(a.fingerprint).toBe(b.fingerprint);
  });

  it('is ignored on the free tier', () => {
    const parsed = parsePayload({ alert: { name: 'mapped' } }, { now: NOW, tier: 'free', mapping });
    expect(parsed.alerts[0].title).toBe(DEFAULT_TITLE);
  });

  it.each([
    [{ title: { path: ['a'], type: 'string' } }, 0],
    [{ title: { path: ['a', 0], type: 'STRING', label: 'Name' } }, 0],
    [[], 1],
    [{ nope: { path: ['a'], type: 'string' } }, 1],
    [{ title: { path: [], type: 'string' } }, 1],
    [{ title: { path: ['a'], type: 'blob' } }, 1],
    [{ title: { path: ['a'], type: 'string', extra: 1 } }, 1],
  ])('validates %j (%i problems)', (value, count) => {
    expect(mappingProblems(value)).toHaveLength(count);
  });
});

describe('Alertmanager webhook (version 4)', () => {
  const sample = JSON.parse(readFileSync(new URL('../fixtures/alertmanager-webhook-sample.json', import.meta.url), 'utf8'));

  it('recognises the captured Alertmanager request and only that shape', () => {
    expect(isAlertmanagerWebhook(sample)).toBe(true);
    expect(isAlertmanagerWebhook({ ...sample, version: '3' })).toBe(false);
    const { groupKey, ...missing } = sample;
    expect(groupKey).toBeDefined();
    expect(isAlertmanagerWebhook(missing)).toBe(false);
    expect(isAlertmanagerWebhook({ title: 'x' })).toBe(false);
  });

  it('maps the captured firing alert with GitLab\'s Prometheus rules', () => {
    const [alert] = parsePayload(sample, { now: NOW, tier: 'ultimate', mapping: null }).alerts;
    expect(alert).toMatchObject({
      title: 'p99 latency above 2s',
      description: 'The API p99 latency has been above 2s for 5 minutes',
      severity: 'critical',
      monitoringTool: 'Prometheus',
      startedAt: Date.parse('2026-11-22T07:40:55.423Z'),
      endedAt: null,
      fingerprint: sha1('2026-11-22T07:40:55.423228199Z/p99 latency above 2s/latency'),
    });
    expect(alert.payload).toEqual(sample.alerts[0]);
  });

  it('a resolved alert keeps the fingerprint and carries its end time', () => {
    const resolved = { ...sample.alerts[0], status: 'resolved', endsAt: '2026-11-22T07:45:36Z' };
    const firing = parsePrometheusAlert(sample.alerts[0], NOW)!;
    const recovery = parsePrometheusAlert(resolved, NOW)!;
    expect(recovery.fingerprint).toBe(firing.fingerprint);
    expect(recovery.endedAt).toBe(Date.parse('2026-11-22T07:45:36Z'));
  });

  it.each([
    [{ annotations: { title: 'T', summary: 'S' }, labels: { alertname: 'A' } }, 'T'],
    [{ annotations: { summary: 'S' }, labels: { alertname: 'A' } }, 'S'],
    [{ labels: { alertname: 'A' } }, 'A'],
  ])('title from %j', (parts, title) => {
    expect(parsePrometheusAlert({ ...parts, startsAt: '2026-11-22T07:00:00Z' }, NOW)!.title).toBe(title);
  });

  it('skips an alert without a title or a start time', () => {
    expect(parsePrometheusAlert({ labels: {}, startsAt: '2026-11-22T07:00:00Z' }, NOW)).toBeNull();
    expect(parsePrometheusAlert({ labels: { alertname: 'A' } }, NOW)).toBeNull();
    const parsed = parsePayload({ ...sample, alerts: [{ labels: {} }, sample.alerts[0]] }, { now: NOW, tier: 'free', mapping: null });
    expect(parsed.alerts).toHaveLength(1);
    expect(parsed.skipped).toBe(1);
  });

  it('uses gitlab_alert_id for a managed alert\'s fingerprint and reads the environment label', () => {
    const alert = parsePrometheusAlert({ labels: { alertname: 'A', gitlab_alert_id: '7', gitlab_environment_name: 'prod' }, startsAt: 'S' }, NOW)!;
    expect(alert.fingerprint).toBe(sha1('7/S'));
    expect(alert.environmentName).toBe('prod');
    expect(alert.startedAt).toBe(NOW);
  });

  it.each([
    ['critical', 'critical'], ['S1', 'critical'], ['p1', 'critical'], ['emergency', 'critical'], ['fatal', 'critical'],
    ['high', 'high'], ['s2', 'high'], ['P2', 'high'], ['major', 'high'], ['page', 'high'],
    ['medium', 'medium'], ['s3', 'medium'], ['p3', 'medium'], ['error', 'medium'], ['alert', 'medium'],
    ['low', 'low'], ['s4', 'low'], ['p4', 'low'], ['warn', 'low'], ['Warning', 'low'], ['minor', 'low'],
    ['info', 'info'], ['s5', 'info'], ['p5', 'info'], ['debug', 'info'], ['information', 'info'], ['notice', 'info'],
    ['whatever', 'critical'], [undefined, 'critical'],
  ])('severity label %s → %s', (label, severity) => {
    expect(prometheusSeverity(label)).toBe(severity);
  });

  it('reads the expression from the generator URL', () => {
    expect(fullQuery('http://p:9090/graph?g0.expr=rate(x%5B5m%5D)%20%3E%201&g0.tab=1')).toBe('rate(x[5m]) > 1');
    expect(fullQuery('not a url')).toBe('');
    expect(fullQuery(undefined)).toBe('');
  });

  it('splits a webhook with several alerts into several alerts', () => {
    const second = { ...sample.alerts[0], labels: { ...sample.alerts[0].labels, alertname: 'Other' }, annotations: {} };
    const parsed = parsePayload({ ...sample, alerts: [sample.alerts[0], second] }, { now: NOW, tier: 'ultimate', mapping: null });
    expect(parsed.alerts.map((a) => a.title)).toEqual(['p99 latency above 2s', 'Other']);
    expect(parsed.source).toBe('prometheus');
  });
});

describe('limits', () => {
  const nested = (depth: number): unknown => (depth === 0 ? 1 : { a: nested(depth - 1) });
  it.each([[1, 0], [{}, 1], [[], 1], [{ a: [1] }, 2], [nested(100), 100], [nested(101), 101]])('depth of %j is %i', (value, depth) => {
    expect(jsonDepth(value, 1000)).toBe(depth);
  });
  it('a body over 1 MiB or nesting over 100 is too large', () => {
    expect(payloadTooLarge('x'.repeat(1024 * 1024), {})).toBe(false);
    expect(payloadTooLarge('x'.repeat(1024 * 1024 + 1), {})).toBe(true);
    expect(payloadTooLarge('é'.repeat(600_000), {})).toBe(true);
    expect(payloadTooLarge('{}', nested(100))).toBe(false);
    expect(payloadTooLarge('{}', nested(101))).toBe(true);
  });
  it('parseTime refuses zero and nonsense', () => {
    expect(parseTime(0)).toBeUndefined();
    expect(parseTime('')).toBeUndefined();
    expect(parseTime({})).toBeUndefined();
  });
});

describe('the hot path reads the same grouping key as the full parse', () => {
  const webhook = JSON.parse(readFileSync(new URL('../fixtures/alertmanager-webhook-sample.json', import.meta.url), 'utf8'));
  const mapping = { fingerprint: { path: ['labels', 'key'], type: 'string' as const }, end_time: { path: ['closed'], type: 'datetime' as const } };
  it.each([
    ['explicit string fingerprint', { title: 'a', fingerprint: 'fp-1' }, 'ultimate', null],
    ['array fingerprint, resolved', { fingerprint: ['cpu', 7], end_time: '2026-11-22T07:00:00Z' }, 'ultimate', null],
    ['payload-derived fingerprint (paid)', { title: 'b', service: 'api', hosts: 'h', start_time: 'x' }, 'ultimate', null],
    ['no fingerprint on the free tier', { title: 'b', service: 'api' }, 'free', null],
    ['mapped fingerprint and end time', { labels: { key: 'k' }, closed: '2026-11-22T07:30:00Z', fingerprint: 'ignored' }, 'ultimate', mapping],
    ['mapping ignored on the free tier', { labels: { key: 'k' }, fingerprint: 'used' }, 'free', mapping],
    ['Alertmanager webhook of one alert', { ...webhook, alerts: webhook.alerts.slice(0, 1) }, 'ultimate', null],
  ] as const)('%s', (_name, payload, tier, map) => {
    const context = { now: NOW, tier, mapping: map } as Parameters<typeof parsePayload>[1];
    const [full] = parsePayload(payload as Record<string, unknown>, context).alerts;
    expect(parseGroupingKey(payload as Record<string, unknown>, context)).toMatchObject({ fingerprint: full.fingerprint, endedAt: full.endedAt });
  });

  it('has no single key for a webhook of several alerts', () => {
    const two = { ...webhook, alerts: [webhook.alerts[0], { ...webhook.alerts[0], labels: { ...webhook.alerts[0].labels, alertname: 'Other' } }] };
    expect(parsePayload(two, { now: NOW, tier: 'ultimate', mapping: null }).alerts).toHaveLength(2);
    expect(parseGroupingKey(two, { now: NOW, tier: 'ultimate', mapping: null })).toBeNull();
  });
});
