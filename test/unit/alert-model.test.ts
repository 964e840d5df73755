import { describe, expect, it } from 'vitest';
import { STATUSES, severityName, statusName, transition, SEVERITY_CODE, STATUS_CODE } from '../../src/alerts/model.js';
import { keyFromAuthorization } from '../../src/alerts/receive-alert.js';
import { mappingFromForm, samplePaths, staleMapping } from '../../src/alerts/mapping-form.js';
import { integrationSlug } from '../../src/alerts/entities.js';
import { NOTIFY_PATTERNS } from '../../src/alerts/notify-routes.js';

const NOW = 1_800_000_000_000;

describe('status transitions (every status from every status)', () => {
  const cases = STATUSES.flatMap((from) => STATUSES.map((to) => [from, to] as const));
  it.each(cases)('%s → %s', (_from, to) => {
    const next = transition(to, NOW, to === 'resolved' ? NOW - 5 : undefined);
    expect(statusName(next.status)).toBe(to);
    expect(next.ended_at).toBe(to === 'resolved' ? NOW - 5 : null);
  });
  it('stamps now when resolving without an end time', () => {
    expect(transition('resolved', NOW)).toEqual({ status: STATUS_CODE.resolved, ended_at: NOW });
  });
  it('stores GitLab\'s numbers', () => {
    expect(STATUS_CODE).toEqual({ triggered: 0, acknowledged: 1, resolved: 2, ignored: 3 });
    expect(SEVERITY_CODE).toEqual({ critical: 0, high: 1, medium: 2, low: 3, info: 4, unknown: 5 });
    expect(severityName(5)).toBe('unknown');
  });
});

describe('the key in the Authorization header', () => {
  const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;
  it.each([
    ['Bearer abc123', 'abc123'],
    ['bearer   abc123 ', 'abc123'],
    ['BEARER abc', 'abc'],
    [basic(':abc'), 'abc'],
    [basic('user:abc:def'), 'abc:def'],
    [basic('nocolon'), null],
    ['Token abc', null],
    ['abc', null],
    [undefined, null],
  ])('%s → %s', (header, key) => {
    expect(keyFromAuthorization(header)).toBe(key);
  });
});

describe('integration URL slug (§14.1)', () => {
  it.each([
    ['Datadog', 'datadog'],
    ['Pager Duty: EU!', 'pager-duty--eu'],
    ['***', 'http-endpoint'],
    ['x'.repeat(70), 'x'.repeat(63)],
  ])('%s → %s', (name, slug) => {
    expect(integrationSlug(name)).toBe(slug);
  });
});

describe('notify URL patterns', () => {
  it.each([
    ['group/sub/project/alerts/notify/name/abc123.json', 'integration', { path: 'group/sub/project', identifier: 'abc123' }],
    ['group/project/alerts/notify/name/abc123', 'integration', { path: 'group/project', identifier: 'abc123' }],
    ['group/project/prometheus/alerts/notify.json', 'prometheus', { path: 'group/project' }],
    ['group/project/alerts/notify.json', 'legacy', { path: 'group/project' }],
    ['group/project/alerts/notify', 'legacy', { path: 'group/project' }],
  ] as const)('%s is the %s URL', (url, kind, groups) => {
    expect(NOTIFY_PATTERNS[kind].exec(url)?.groups).toMatchObject(groups);
  });
  it('refuses an identifier outside [A-Za-z0-9]', () => {
    expect(NOTIFY_PATTERNS.integration.exec('g/p/alerts/notify/name/ab-c.json')).toBeNull();
  });
});

describe('the mapping form', () => {
  const sample = { alert: { name: 'x', tags: ['a', 'b'], when: '2026-01-01T00:00:00Z' }, list: [{ host: 'h' }] };
  it('offers every leaf path, array elements by index', () => {
    expect(samplePaths(sample)).toEqual([['alert', 'name'], ['alert', 'tags'], ['alert', 'when'], ['list'], ['list', 0, 'host']]);
  });
  it('keeps only offered paths and types each field', () => {
    const mapping = mappingFromForm(sample, { map_title: '["alert","name"]', map_hosts: '["alert","tags"]', map_start_time: '["alert","when"]', map_service: '["nope"]', map_severity: '' });
    expect(mapping).toEqual({
      title: { path: ['alert', 'name'], type: 'string', label: 'alert.name' },
      start_time: { path: ['alert', 'when'], type: 'datetime', label: 'alert.when' },
      hosts: { path: ['alert', 'tags'], type: 'array', label: 'alert.tags' },
    });
  });
  it('reports mapped paths missing from a changed sample', () => {
    expect(staleMapping({ other: 1 }, { title: { path: ['alert', 'name'], type: 'string' } })).toEqual(['title']);
    expect(staleMapping(sample, { title: { path: ['alert', 'name'], type: 'string' } })).toEqual([]);
  });
});
