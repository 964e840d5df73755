// Milestone dates as GitLab's Date cast takes them: a date, or a date and time kept as its date.
import { describe, expect, it } from 'vitest';
import { dateParam } from '../../src/milestones/milestone-params.js';

describe('milestone date parameters', () => {
  it('keeps the date of a date and time, clears on blank, and names a value that is no date', () => {
    expect(dateParam('due_date', '2026-12-24')).toBe('2026-12-24');
    expect(dateParam('due_date', '2026-12-24T23:30:00.000+01:00')).toBe('2026-12-24');
    expect(dateParam('start_date', '2026-12-01 08:00')).toBe('2026-12-01');
    expect(dateParam('due_date', '2026-12-01T10:00:00Z')).toBe('2026-12-01');
    expect(dateParam('due_date', ' ')).toBeNull();
    expect(dateParam('due_date', undefined)).toBeUndefined();
    for (const wrong of ['soon', '2026-02-30T10:00:00Z', '2026-12-01Tnoon', '2026-12-01T10:00:00Z; drop']) {
      expect(() => dateParam('due_date', wrong)).toThrow('due_date is invalid');
    }
  });
});
