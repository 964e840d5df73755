// Wildcards matched without a RegExp (src/platform/patterns/wildcard.ts): the same answers as the
// anchored `.*` expression GitLab builds, in linear time.
import { describe, expect, it } from 'vitest';
import { wildcardMatches } from '../../src/platform/patterns/wildcard.js';

/** What GitLab's RefMatcher would answer, for comparison on small inputs. */
function byRegExp(pattern: string, text: string): boolean {
  return new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('.*?')}$`, 's').test(text);
}

describe('wildcardMatches', () => {
  it('answers as the anchored expression for every pattern and text over a small alphabet', () => {
    const words = ['', 'a', 'b', 'ab', 'ba', 'aa', 'aba', 'abab', 'bab', 'a/b'];
    const patterns = ['*', 'a', '*a', 'a*', '*a*', 'a*a', 'a*b', '*b*a*', 'a**b', 'ab*ab', '*/*', 'b*a*b'];
    for (const pattern of patterns) for (const word of words) expect([pattern, word, wildcardMatches(pattern, word)]).toEqual([pattern, word, byRegExp(pattern, word)]);
  });

  it('matches unanchored and case-insensitively when asked', () => {
    expect(wildcardMatches('*.RB', 'lib/x.rb', { anchorStart: false, caseInsensitive: true })).toBe(true);
    expect(wildcardMatches('src', 'lib/src/x', { anchorStart: false, anchorEnd: false })).toBe(true);
    expect(wildcardMatches('s*c', 'lib/src/x', { anchorStart: false, anchorEnd: false })).toBe(true);
    expect(wildcardMatches('x*src', 'lib/src/x', { anchorStart: false, anchorEnd: false })).toBe(false);
  });

  it('takes microseconds where a backtracking engine takes seconds', () => {
    const started = performance.now();
    expect(wildcardMatches(`${'a*'.repeat(50)}b`, 'a'.repeat(10_000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(50);
  });
});
