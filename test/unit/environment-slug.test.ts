import { describe, expect, it } from 'vitest';
import { environmentSlug, slugSuffix } from '../../src/environments/slug.js';
import { guessTier } from '../../src/environments/tier.js';

// GitLab's REST API documentation: GitLab's own vectors, with the hash stubbed so the suffix is `q517sa`.
const STUBBED: Array<[string, string]> = [
  ['staging-12345678901234567', 'staging-123456789-q517sa'],
  ['9-staging-123456789012345', 'env-9-staging-123-q517sa'],
  ['staging-1234567890123456', 'staging-1234567890123456'],
  ['staging-1234567890123456-', 'staging-123456789-q517sa'],
  ['production', 'production'],
  ['PRODUCTION', 'production-q517sa'],
  ['review/1-foo', 'review-1-foo-q517sa'],
  ['1-foo', 'env-1-foo-q517sa'],
  ['1/foo', 'env-1-foo-q517sa'],
  ['foo-', 'foo'],
  ['foo--bar', 'foo-bar-q517sa'],
  ['foo**bar', 'foo-bar-q517sa'],
  ['*-foo', 'env-foo-q517sa'],
  ['staging-12345678-', 'staging-12345678'],
  ['staging-12345678-01234567', 'staging-12345678-q517sa'],
  ['', 'env-q517sa'],
];

// The same algorithm with the real SHA-256 suffix (values computed in GitLab's REST API documentation).
const REAL: Array<[string, string]> = [
  ['review/fix-foo', 'review-fix-foo-v25cyx'],
  ['PRODUCTION', 'production-vl4voz'],
  ['Review App 1', 'review-app-1-uwk58l'],
  ['1-foo', 'env-1-foo-1k46wz'],
  ['feature/very-long-branch-name-here', 'feature-very-long-f050u4'],
  ['staging', 'staging'],
];

describe('environmentSlug', () => {
  it.each(STUBBED)('%j → %s (stubbed suffix)', (name, slug) => {
    expect(environmentSlug(name, () => 'q517sa')).toBe(slug);
  });

  it.each(REAL)('%j → %s', (name, slug) => {
    expect(environmentSlug(name)).toBe(slug);
  });

  it('treats a missing name as the empty string', () => {
    expect(environmentSlug(null, () => 'q517sa')).toBe('env-q517sa');
  });

  it('always yields a valid slug of at most 24 characters', () => {
    for (const name of ['a', 'A'.repeat(300), '---', 'ü-ß', 'x/'.repeat(40), '$ {} .']) {
      expect(environmentSlug(name)).toMatch(/^[a-z]([a-z0-9-]*[a-z0-9])?$/);
      expect(environmentSlug(name).length).toBeLessThanOrEqual(24);
    }
  });

  it('derives a deterministic six-character base-36 suffix from the name', () => {
    expect(slugSuffix('PRODUCTION')).toBe('vl4voz');
    expect(slugSuffix('x')).toMatch(/^[0-9a-z]{6}$/);
    expect(slugSuffix('x')).toBe(slugSuffix('x'));
  });
});

describe('guessTier', () => {
  it.each([
    ['production', 'production'],
    ['prd', 'production'],
    ['live', 'production'],
    ['staging', 'staging'],
    ['stg', 'staging'],
    ['pre-prod', 'staging'],
    ['demo', 'staging'],
    ['model', 'staging'],
    ['test', 'testing'],
    ['qc', 'testing'],
    ['dev', 'development'],
    ['review/fix-foo', 'development'],
    ['trunk', 'development'],
    ['preview', 'development'],
    ['canary', 'other'],
  ])('%s → %s', (name, tier) => {
    expect(guessTier(name)).toBe(tier);
  });
});
