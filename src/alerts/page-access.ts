// Shared by the alert pages: the project of a namespaced URL, seen through the signed-in user.
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { findProject, requireLevel, type ProjectAccess } from '../accounts/lookup.js';

export async function pageProject(deps: Deps, user: AuthUser, path: string, minimum: number): Promise<ProjectAccess> {
  const access = await findProject(deps, { user, scopes: ['api'], via: 'session', tokenId: null }, path);
  requireLevel(access, minimum);
  return access;
}

/** A form field as one string ('' when missing or repeated). */
export function field(form: Record<string, string | string[]>, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value : '';
}
