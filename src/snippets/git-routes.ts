// A snippet's repository over git at GitLab's URLs: `/snippets/<id>.git` for a personal snippet and
// `/<project>/snippets/<id>.git` for a project's, over smart HTTP here and over SSH (the same paths,
// through repositories' readOnlyRepository hook, registered in index.ts). Who may clone is who may read the
// snippet (snippet-policy.ts; a project snippet within the project's snippets feature): anyone else
// is told the repository is not found, an anonymous caller is asked for credentials first. Before
// the fetch the repository is brought up to date with the snippet's files (snippet-repository.ts).
// Kiln takes no pushes to a snippet: its files change through the API and its page.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { namespacedRoute } from '../platform/http/namespaced-routes.js';
import { canOnProject } from '../platform/auth/policies/index.js';
import { findProjectRow, projectAccess } from '../accounts/api.js';
import { serveReadOnlyGit, snippetRepository, type ReadOnlyGitRepository } from '../repositories/api.js';
import { findAnySnippet, type SnippetRow } from './finder.js';
import { canReadSnippet } from './snippet-policy.js';
import { syncSnippetRepository } from './snippet-repository.js';

const SNIPPET_GIT_URL = /^(?:(?<project>.+)\/)?snippets\/(?<id>\d+)\.git\/(?<action>info\/refs|git-upload-pack|git-receive-pack)$/;
const PUSH_REFUSAL = "You are not allowed to push to this snippet's repository: change its files through the API or its page.";

/** The project of `path` as `user` reads it, or null (missing, or not readable). */
async function projectFor(deps: Deps, path: string, user: AuthUser | null): Promise<ProjectAccess | null> {
  const project = await findProjectRow(deps, path);
  if (!project) return null;
  const { level, namespace } = await projectAccess(deps.reads, user, project, deps.clock.now());
  const access: ProjectAccess = { user, level, visibility: project.visibility, features: project, project, namespace };
  return canOnProject(access, 'read_project') ? access : null;
}

/** Whether `user` reads the snippet `id` at this place (a personal one, or one of the project at `projectPath`). */
async function readableSnippet(deps: Deps, id: number, projectPath: string | undefined, user: AuthUser | null): Promise<SnippetRow | null> {
  const snippet = await findAnySnippet(deps.db, id).catch(() => null);
  if (!snippet) return null;
  if (projectPath === undefined) return snippet.project_id === null && canReadSnippet(user, snippet, null) ? snippet : null;
  const access = await projectFor(deps, projectPath, user);
  if (!access || snippet.project_id === null || Number(snippet.project_id) !== Number(access.project.id)) return null;
  return canReadSnippet(user, snippet, access) ? snippet : null;
}

/** The snippet `id` (of the project at `projectPath`, or a personal one) as a repository git reads. */
function snippetGitRepository(deps: Deps, id: number, projectPath: string | undefined): ReadOnlyGitRepository {
  let found: SnippetRow | null = null;
  return {
    readable: async (user) => (found = await readableSnippet(deps, id, projectPath, user)) !== null,
    open: async () => {
      await syncSnippetRepository(deps, id, 'Snippet files', Number(found!.author_id));
      const { shardPath, diskPath } = await snippetRepository(deps, id);
      return { shardPath, diskPath };
    },
    pushRefusal: PUSH_REFUSAL,
  };
}

const SNIPPET_SSH_PATH = /^(?:(?<project>.+)\/)?snippets\/(?<id>\d{1,15})$/;

/** The snippet repository an SSH command names (`snippets/<id>`, `<project>/snippets/<id>`), or null. */
export function snippetSshRepository(deps: Deps, path: string): ReadOnlyGitRepository | null {
  const match = SNIPPET_SSH_PATH.exec(path);
  return match?.groups ? snippetGitRepository(deps, Number(match.groups.id), match.groups.project) : null;
}

export function snippetGitRoutes(app: FastifyInstance, deps: Deps): void {
  namespacedRoute(app, {
    method: ['GET', 'POST'],
    pattern: SNIPPET_GIT_URL,
    // Git's own protocol (HTTP Basic with its 401 challenge); the snippet's read rule is asked once
    // the credentials are known (serveReadOnlyGit).
    ability: { credential: 'git_http' },
    handler: (request, reply, groups) => serveReadOnlyGit(deps, request, reply, groups.action, snippetGitRepository(deps, Number(groups.id), groups.project)),
  });
}
