// A snippet's repository over git at GitLab's URLs: `/snippets/<id>.git` for a personal snippet and
// `/<project>/snippets/<id>.git` for a project's, over smart HTTP here and over SSH (the same paths,
// through repositories' ownedRepository hook, registered in index.ts). Who may clone is who may read the
// snippet (snippet-policy.ts; a project snippet within the project's snippets feature): anyone else
// is told the repository is not found, an anonymous caller is asked for credentials first. Whoever
// may change the snippet may push to it (GitLab's GitAccessSnippet), within snippet-push.ts's rules;
// the snippet's files then follow the repository (snippet-repository.ts). Before a fetch the
// repository is brought up to date with the snippet's files.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { namespacedRoute } from '../platform/http/namespaced-routes.js';
import { canOnProject } from '../platform/auth/policies/index.js';
import { findProjectRow, projectAccess } from '../accounts/api.js';
import { serveOwnedGit, snippetRepository, type OwnedGitRepository } from '../repositories/api.js';
import { findAnySnippet, type SnippetRow } from './finder.js';
import { canReadSnippet, canUpdateSnippet } from './snippet-policy.js';
import { beginSnippetPush, syncSnippetRepository, type SnippetPushTurn } from './snippet-repository.js';
import { checkPushedSnippet } from './snippet-push.js';

const SNIPPET_GIT_URL = /^(?:(?<project>.+)\/)?snippets\/(?<id>\d+)\.git\/(?<action>info\/refs|git-upload-pack|git-receive-pack)$/;
/** GitLab's GitAccessSnippet refusal of a push by a reader who may not change the snippet. */
const PUSH_REFUSAL = 'You are not allowed to update this snippet.';

/** The project of `path` as `user` reads it, or null (missing, or not readable). */
async function projectFor(deps: Deps, path: string, user: AuthUser | null): Promise<ProjectAccess | null> {
  const project = await findProjectRow(deps, path);
  if (!project) return null;
  const { level, namespace } = await projectAccess(deps.reads, user, project, deps.clock.now());
  const access: ProjectAccess = { user, level, visibility: project.visibility, features: project, project, namespace };
  return canOnProject(access, 'read_project') ? access : null;
}

/** The snippet `id` at this place (a personal one, or one of the project at `projectPath`) if `user` reads it, with the project's access. */
async function readableSnippet(deps: Deps, id: number, projectPath: string | undefined, user: AuthUser | null): Promise<{ snippet: SnippetRow; access: ProjectAccess | null } | null> {
  const snippet = await findAnySnippet(deps.db, id).catch(() => null);
  if (!snippet) return null;
  if (projectPath === undefined) return snippet.project_id === null && canReadSnippet(user, snippet, null) ? { snippet, access: null } : null;
  const access = await projectFor(deps, projectPath, user);
  if (!access || snippet.project_id === null || Number(snippet.project_id) !== Number(access.project.id)) return null;
  return canReadSnippet(user, snippet, access) ? { snippet, access } : null;
}

/** The snippet `id` (of the project at `projectPath`, or a personal one) as a repository git reads and pushes to. */
function snippetGitRepository(deps: Deps, id: number, projectPath: string | undefined): OwnedGitRepository {
  let found: { snippet: SnippetRow; access: ProjectAccess | null } | null = null;
  let turn: SnippetPushTurn | null = null;
  return {
    readable: async (user) => (found = await readableSnippet(deps, id, projectPath, user)) !== null,
    writable: async (user) => found !== null && canUpdateSnippet(user, found.snippet, found.access),
    pushRefusal: PUSH_REFUSAL,
    // A storage move holds the snippet read-only (storage-move-routes.ts): its pushes are refused.
    container: { type: 'snippet', id },
    open: async (pushing) => {
      const authorId = Number(found!.snippet.author_id);
      if (pushing) turn = await beginSnippetPush(deps, id, authorId);
      else await syncSnippetRepository(deps, id, 'Snippet files', authorId);
      const { shardPath, diskPath } = await snippetRepository(deps, id);
      return { shardPath, diskPath };
    },
    checkPush: (repoPath, quarantine, updates) => checkPushedSnippet(deps, repoPath, quarantine, updates),
    pushed: async (_userId, succeeded) => {
      await turn?.end(succeeded);
      turn = null;
    },
  };
}

const SNIPPET_SSH_PATH = /^(?:(?<project>.+)\/)?snippets\/(?<id>\d{1,15})$/;

/** The snippet repository an SSH command names (`snippets/<id>`, `<project>/snippets/<id>`), or null. */
export function snippetSshRepository(deps: Deps, path: string): OwnedGitRepository | null {
  const match = SNIPPET_SSH_PATH.exec(path);
  return match?.groups ? snippetGitRepository(deps, Number(match.groups.id), match.groups.project) : null;
}

export function snippetGitRoutes(app: FastifyInstance, deps: Deps): void {
  namespacedRoute(app, {
    method: ['GET', 'POST'],
    pattern: SNIPPET_GIT_URL,
    // Git's own protocol (HTTP Basic with its 401 challenge); the snippet's read rule is asked once
    // the credentials are known (serveOwnedGit).
    ability: { credential: 'git_http' },
    handler: (request, reply, groups) => serveOwnedGit(deps, request, reply, groups.action, snippetGitRepository(deps, Number(groups.id), groups.project)),
  });
}
