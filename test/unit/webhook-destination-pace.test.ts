// The steady rate per webhook destination (issue 33): sends are spaced 1/SENDS_PER_SECOND apart per
// destination, destinations do not share a pace, and a send that could only go after the job's budget
// is refused without taking a moment from the sends after it. Times are given, not measured.
import { describe, expect, it } from 'vitest';
import { SENDS_PER_SECOND, reserveSend } from '../../src/webhooks/destination-pace.js';

const interval = 1000 / SENDS_PER_SECOND;

describe('reserveSend', () => {
  it('spaces the sends to one destination evenly, from the first at once', () => {
    const waits = Array.from({ length: 5 }, () => reserveSend('http://pace-a:80', 1_000, 1_000_000));
    expect(waits).toEqual([0, interval, 2 * interval, 3 * interval, 4 * interval]);
  });

  it('keeps a separate pace for each destination', () => {
    reserveSend('http://pace-b:80', 5_000, 1_000_000);
    expect(reserveSend('http://pace-c:80', 5_000, 1_000_000)).toBe(0);
    expect(reserveSend('http://pace-b:80', 5_000, 1_000_000)).toBe(interval);
  });

  it('refuses a send whose moment is past the deadline, and reserves nothing for it', () => {
    expect(reserveSend('http://pace-d:80', 9_000, 9_000)).toBe(0);
    expect(reserveSend('http://pace-d:80', 9_000, 9_000)).toBeNull();
    expect(reserveSend('http://pace-d:80', 9_000, 9_000 + interval)).toBe(interval);
  });

  it('lets a destination send at once again after a quiet spell', () => {
    reserveSend('http://pace-e:80', 20_000, 1_000_000);
    expect(reserveSend('http://pace-e:80', 20_000 + 10 * interval, 1_000_000)).toBe(0);
  });
});
