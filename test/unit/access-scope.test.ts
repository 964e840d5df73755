// The caller's scope in every cached answer's key (platform/auth/access-scope.ts): the day is in it
// because memberships expire by the day without a write that would empty the read cache.
import { describe, expect, it } from 'vitest';
import { accessScope, today } from '../../src/platform/auth/access-scope.js';
import type { AuthUser } from '../../src/platform/auth/principal.js';

const user = (id: number, admin = false): AuthUser => ({ id, username: `u${id}`, name: `U ${id}`, state: 'active', admin, otpRequired: false });
const MORNING = Date.parse('2026-11-22T08:00:00.000Z');
const LAST_MINUTE = Date.parse('2026-11-22T23:59:59.999Z');
const NEXT_DAY = Date.parse('2026-11-23T00:00:00.000Z');

describe('accessScope', () => {
  it('differs by user, by the admin flag and by the day', () => {
    const scopes = [accessScope(user(1), MORNING), accessScope(user(2), MORNING), accessScope(user(1, true), MORNING), accessScope(user(1), NEXT_DAY), accessScope(null, MORNING)];
    expect(new Set(scopes).size).toBe(scopes.length);
  });

  it('is the same all day for one caller, and one for every anonymous caller', () => {
    expect(accessScope(user(1), MORNING)).toBe(accessScope(user(1), LAST_MINUTE));
    expect(accessScope(null, MORNING)).toBe(accessScope(null, NEXT_DAY));
  });

  it('uses the UTC date members.expires_at is compared with', () => {
    expect(today(LAST_MINUTE)).toBe('2026-11-22');
    expect(today(NEXT_DAY)).toBe('2026-11-23');
  });
});
