import { describe, expect, it } from 'vitest';
import { transition } from '../../src/environments/deployment-status.js';
import { environmentErrors, normalizeExternalUrl } from '../../src/environments/validation.js';
import { blockedUrlReason } from '../../src/platform/url-blocker.js';

describe('deployment status transitions (GitLab deployment.rb state machine)', () => {
  it.each([
    ['created', 'running', true],
    ['running', 'running', false],
    ['success', 'running', false],
    ['created', 'success', true],
    ['running', 'success', true],
    ['failed', 'success', true],
    ['success', 'success', false],
    ['success', 'failed', true],
    ['failed', 'failed', false],
    ['running', 'canceled', true],
    ['canceled', 'canceled', false],
  ] as const)('%s → %s allowed: %s', (from, to, allowed) => {
    expect(transition(from, to).ok).toBe(allowed);
  });

  it('names the refused event in state_machines\' words', () => {
    expect(transition('success', 'running')).toEqual({ ok: false, message: 'cannot transition via "run"' });
    expect(transition('canceled', 'canceled')).toEqual({ ok: false, message: 'cannot transition via "cancel"' });
  });

  it('marks every status but running as finished', () => {
    expect(transition('created', 'running')).toEqual({ ok: true, finished: false });
    expect(transition('running', 'failed')).toEqual({ ok: true, finished: true });
  });
});

describe('environment validations', () => {
  const none = { name: false, slug: false };

  it('accepts a valid environment', () => {
    expect(environmentErrors({ name: 'review/app 1', slug: 'review-app-1-abcdef', externalUrl: 'https://x.example.com' }, none)).toEqual({});
  });

  it('lists name, slug and URL problems in Rails\' order', () => {
    expect(environmentErrors({ name: '', slug: '', externalUrl: 'ftp://x' }, { name: true, slug: true })).toEqual({
      name: ["can't be blank", 'has already been taken', "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'"],
      slug: ["can't be blank", 'has already been taken', "can contain only lowercase letters, digits, and '-'. Must start with a letter, and cannot end with '-'"],
      external_url: ['is blocked: Only allowed schemes are http, https'],
    });
  });

  it('normalizes a blank external URL to none and trims it otherwise', () => {
    expect(normalizeExternalUrl('   ')).toBeNull();
    expect(normalizeExternalUrl(undefined)).toBeNull();
    expect(normalizeExternalUrl(' https://a.example.com ')).toBe('https://a.example.com');
  });
});

describe('blockedUrlReason (Gitlab::UrlBlocker messages)', () => {
  it.each([
    ['https://example.com/path?q=1', {}, null],
    ['HTTP://EXAMPLE.COM', {}, null],
    ['http://[::1]:8080/', {}, null],
    ['example.com', {}, 'Only allowed schemes are http, https'],
    ['mailto:a@b.c', {}, 'Only allowed schemes are http, https'],
    ['http://a\nb.example.com', {}, 'URI is invalid'],
    ['http://_under.example.com', {}, 'Hostname or IP address invalid'],
    ['http://localhost/', { allowLocalhost: false }, 'Requests to localhost are not allowed'],
    ['http://[::1]/', { allowLocalhost: false }, 'Requests to localhost are not allowed'],
    ['http://172.20.1.1/', { allowLocalNetwork: false }, 'Requests to the local network are not allowed'],
    ['http://169.254.169.254/', { allowLocalNetwork: false }, 'Requests to the local network are not allowed'],
    ['http://172.32.0.1/', { allowLocalNetwork: false }, null],
    ['http://bücher.example/', { asciiOnly: true }, 'URI must be ascii only "http://bücher.example/"'],
    ['http://bücher.example/', {}, null],
    ['http://x.example/<b>', { enforceSanitization: true }, 'HTML/CSS/JS tags are not allowed'],
  ])('%j with %j → %j', (url, rules, reason) => {
    expect(blockedUrlReason(url, rules)).toBe(reason);
  });
});
