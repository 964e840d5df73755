// Time is injected (docs/architecture.md) so expiry and retention are tested without sleeping.
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
  return new Date(Number(ms)).toISOString();
}
