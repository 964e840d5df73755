// The day memberships expire by (platform/auth/access-scope.ts): the UTC date members.expires_at is
// compared with.
import { describe, expect, it } from 'vitest';
import { today } from '../../src/platform/auth/access-scope.js';

const LAST_MINUTE = Date.parse('2026-11-22T23:59:59.999Z');
const NEXT_DAY = Date.parse('2026-11-23T00:00:00.000Z');

describe('today', () => {
  it('uses the UTC date members.expires_at is compared with', () => {
    expect(today(LAST_MINUTE)).toBe('2026-11-22');
    expect(today(NEXT_DAY)).toBe('2026-11-23');
  });
});
