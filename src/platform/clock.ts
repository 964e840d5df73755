// Time is injected (docs/architecture.md) so expiry and retention are tested without sleeping.
import { BoundedMap } from './bounded-map.js';

export interface Clock {
  now(): number; // milliseconds since the epoch
}

export const DAY_MS = 86_400_000;

export const systemClock: Clock = { now: () => Date.now() };

export class ManualClock implements Clock {
  constructor(private current = Date.parse('2026-11-22T08:00:00.000Z')) {}
  now(): number {
    return this.current;
  }
  set(ms: number): void {
    this.current = ms;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

/** Wire timestamps: ISO 8601 UTC with milliseconds, the one conversion from the stored epoch milliseconds. */
export function isoTime(ms: number | string | null | undefined): string | null {
  if (ms === null || ms === undefined) return null;
  const time = Number(ms);
  // Formatting a Date costs ~1 µs, and an answer repeats the same stored times (a project's
  // created_at on every read of it): remembered by value, a pure function of it.
  let text = isoTexts.get(time);
  if (text === undefined) {
    text = new Date(time).toISOString();
    isoTexts.set(time, text);
  }
  return text;
}

const isoTexts = new BoundedMap<number, string>(8192);
