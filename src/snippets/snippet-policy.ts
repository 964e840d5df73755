// Who reads and changes a snippet (GitLab's PersonalSnippetPolicy and ProjectSnippetPolicy):
// - a personal snippet: public ones by anyone, internal ones by any signed-in user, private ones by
//   their author; changed and deleted by their author; administrators do everything;
// - a project snippet: first the project's snippets feature (read_snippet within its
//   snippets_access_level, which the policy reads from the project row), then the snippet's own
//   visibility (private: members; internal: signed-in users; public: whoever reads the project);
//   changed by its author or the project's Maintainers.
import type { AuthUser } from '../platform/auth/principal.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { canOnProject, snippetVisibilitiesOn, type ProjectAbility } from '../platform/auth/policies/index.js';
import { ForbiddenError } from '../platform/errors.js';
import type { SnippetRow } from './finder.js';

/** 403 unless the project's snippets feature allows `ability` (GitLab's check_snippets_enabled is a 403). */
export function authorizeSnippets(access: ProjectAccess, ability: ProjectAbility): ProjectAccess {
  if (!canOnProject(access, ability)) throw new ForbiddenError();
  return access;
}

function active(user: AuthUser | null): user is AuthUser {
  return user !== null && user.state === 'active';
}

/** The visibilities of a project's snippets that the caller reads (the project's snippets already readable). */
export function readableVisibilities(access: ProjectAccess): SnippetRow['visibility'][] {
  return snippetVisibilitiesOn(access);
}

export function canReadSnippet(user: AuthUser | null, snippet: SnippetRow, access: ProjectAccess | null): boolean {
  if (user && user.state !== 'active') return false;
  if (snippet.project_id !== null) {
    if (!access || !canOnProject(access, 'read_snippet')) return false;
    return readableVisibilities(access).includes(snippet.visibility) || Number(snippet.author_id) === user?.id;
  }
  if (user?.admin || (user && Number(snippet.author_id) === user.id)) return true;
  if (snippet.visibility === 'public') return true;
  return snippet.visibility === 'internal' && active(user);
}

export function canUpdateSnippet(user: AuthUser | null, snippet: SnippetRow, access: ProjectAccess | null): boolean {
  if (!active(user) || !canReadSnippet(user, snippet, access)) return false;
  if (user.admin) return true;
  if (snippet.project_id === null) return Number(snippet.author_id) === user.id;
  if (canOnProject(access!, 'admin_snippet')) return true;
  // The author while still allowed to write snippets there (a demoted Guest is not).
  return Number(snippet.author_id) === user.id && canOnProject(access!, 'create_snippet');
}
