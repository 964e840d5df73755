// The one bound of the in-memory caches (platform/bounded-map.ts).
import { describe, expect, it } from 'vitest';
import { BoundedMap } from '../../src/platform/bounded-map.js';

describe('BoundedMap', () => {
  it('never holds more than its limit: a new key pushes out the entry added least recently', () => {
    const map = new BoundedMap<string, number>(3);
    for (const [index, key] of ['a', 'b', 'c', 'd', 'e'].entries()) map.set(key, index);
    expect([...map.entries()]).toEqual([['c', 2], ['d', 3], ['e', 4]]);
  });

  it('replaces an existing key in place, pushing nothing out', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2).set('a', 3);
    expect([...map.entries()]).toEqual([['a', 3], ['b', 2]]);
  });

  it('refresh makes an entry the most recent, so the least recently used goes first', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2);
    expect(map.refresh('a')).toBe(1);
    map.set('c', 3);
    expect([...map.keys()]).toEqual(['a', 'c']);
    expect(map.refresh('missing')).toBeUndefined();
  });

  it('get leaves the order alone', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2);
    expect(map.get('a')).toBe(1);
    map.set('c', 3);
    expect([...map.keys()]).toEqual(['b', 'c']);
  });
});
