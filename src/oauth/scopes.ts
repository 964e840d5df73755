// OAuth scopes of GitLab 13.10–14.x (GitLab's OAuth documentation); registry scopes are left out because
// Kiln has no container registry. Scope strings are space-delimited and case-sensitive (RFC 6749 §3.3).
import type { AuthUser } from '../platform/auth/principal.js';
import { canOnInstance } from '../platform/auth/policies/policy.js';

export const SCOPE_DESCRIPTIONS: Record<string, string> = {
  api: 'Grants complete read/write access to the API, including all groups and projects.',
  read_api: 'Grants read access to the API, including all groups and projects.',
  read_user: "Grants read-only access to your profile through the /user API endpoint, which includes username, public email, and full name. Also grants access to read-only API endpoints under /users.",
  read_repository: 'Grants read-only access to repositories on private projects using Git-over-HTTP.',
  write_repository: 'Grants read-write access to repositories on private projects using Git-over-HTTP (not using the API).',
  sudo: 'Grants permission to perform API actions as any user in the system, when authenticated as an admin user.',
  openid: 'Grants permission to authenticate with Kiln using OpenID Connect. Also gives read-only access to the user\'s profile and group memberships.',
  profile: "Grants read-only access to the user's profile data using OpenID Connect.",
  email: "Grants read-only access to the user's primary email address using OpenID Connect.",
};

export const ALL_SCOPES = Object.keys(SCOPE_DESCRIPTIONS);

/**
 * Scopes only administrators may give an application or token (GitLab's `ADMIN_SCOPES`). Later
 * GitLab versions add `admin_mode`; Kiln has no admin mode, so it knows no such scope at all.
 */
export const ADMIN_SCOPES = ['sudo'];

/** The scopes a user may register: all of them for administrators, all but the admin scopes otherwise. */
export function availableScopes(user: AuthUser | null): string[] {
  return canOnInstance(user, 'admin_all_resources') ? ALL_SCOPES : ALL_SCOPES.filter((scope) => !ADMIN_SCOPES.includes(scope));
}

/** `enforce_configured_scopes`: the default scope when a request names none (GitLab's OAuth documentation). */
export const DEFAULT_SCOPES = ['api'];

export type ScopeParse = { ok: true; scopes: string[] } | { ok: false };

/**
 * Parse a `scope` parameter: space-separated (a `+` arrives already decoded as a space), order-free,
 * duplicates collapsed. Tabs and line breaks are malformed (Doorkeeper's scope checker).
 */
export function parseScopes(raw: string): ScopeParse {
  if (/[\t\r\n]/.test(raw)) return { ok: false };
  const scopes = [...new Set(raw.split(' ').filter((scope) => scope !== ''))];
  if (scopes.length === 0) return { ok: false };
  return { ok: true, scopes };
}

/**
 * Resolve the scopes of a request against what the application may ask for (GitLab's OAuth documentation
 * §5.4): no `scope` means the defaults intersected with the application's scopes; otherwise every
 * requested scope must be allowed. Returns null for `invalid_scope`.
 */
export function resolveScopes(requested: string | undefined, allowed: string[]): string[] | null {
  if (requested === undefined || requested === '') {
    const scopes = DEFAULT_SCOPES.filter((scope) => allowed.includes(scope));
    return scopes.length ? scopes : null;
  }
  const parsed = parseScopes(requested);
  if (!parsed.ok) return null;
  return parsed.scopes.every((scope) => allowed.includes(scope)) ? parsed.scopes : null;
}

export function splitScopes(stored: string): string[] {
  return stored.split(' ').filter((scope) => scope !== '');
}
