// What the system hook payloads share (GitLab's Gitlab::HookData builders for system events).

/** GitLab's `xmlschema` timestamps of system hook payloads: `2012-07-21T07:30:54Z` (UTC, whole seconds). */
export function xmlschema(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A member's `expires_at` (a date) as GitLab sends it: midnight UTC in xmlschema, or null. */
export function expiresAt(date: string | null): string | null {
  return date === null ? null : `${date.slice(0, 10)}T00:00:00Z`;
}

/** GitLab's `human_access`: the role's name for a member's access level, as the payload names it. */
const ROLE_NAMES: Record<number, string> = { 10: 'Guest', 20: 'Reporter', 30: 'Developer', 40: 'Maintainer', 50: 'Owner' };

export function humanAccess(level: number): string {
  return ROLE_NAMES[level] ?? String(level);
}

/** The created_at/updated_at pair every system event payload carries. */
export function timestamps(of: { createdAt: number; updatedAt: number }) {
  return { created_at: xmlschema(of.createdAt), updated_at: xmlschema(of.updatedAt) };
}
