// Project snippets (doc/api/project_snippets.md; lib/api/project_snippets.rb): within the project's
// snippets feature (snippets_access_level; 403 when it is closed to the caller), read by Guests and
// readers of the project as each snippet's visibility allows, made by Reporters, changed and deleted
// by their author or Maintainers.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { ForbiddenError, NotFoundError } from '../platform/errors.js';
import type { SnippetVisibility } from '../platform/db/tables/snippets.js';
import { findProjectSnippet, projectSnippetsQuery, snippetFiles } from './finder.js';
import { presentSnippet, presentSnippets } from './entities.js';
import { authorizeSnippets, canReadSnippet, canUpdateSnippet, readableVisibilities } from './snippet-policy.js';
import { createSnippet } from './create-snippet.js';
import { updateSnippet } from './update-snippet.js';
import { deleteSnippet } from './delete-snippet.js';
import { filesToCreate } from './snippet-input.js';
import { createParams, fileAt, LIST_PARAMS, listDates, sendRaw, UPDATE_PARAMS, updateChanges } from './snippet-params.js';
import { requestDetail, userAgentDetail } from '../platform/http/user-agent-detail.js';

const TAGS = ['project_snippets'];
const ONE = { id: p.string.required(), snippet_id: p.integer.required() };
const READ = { project: 'read_snippet' } as const;
const BODY_LIMIT = 12 * 1024 * 1024;

export function projectSnippetRoutes(app: FastifyInstance, deps: Deps): void {
  async function readable(access: ProjectAccess, id: number) {
    const withFeature = authorizeSnippets(access, 'read_snippet');
    const snippet = await findProjectSnippet(deps.db, Number(access.project.id), id);
    if (!canReadSnippet(access.user, snippet, withFeature)) throw new NotFoundError('Snippet');
    return { snippet, access: withFeature };
  }

  async function writable(access: ProjectAccess, id: number) {
    const found = await readable(access, id);
    if (!canUpdateSnippet(access.user, found.snippet, found.access)) throw new ForbiddenError();
    return found.snippet;
  }

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/snippets', summary: "A project's snippets that the caller may read", tags: TAGS, paginated: true,
    ability: READ, auth: 'optional', params: { id: p.string.required(), ...LIST_PARAMS },
    handler: async ({ params, project, paginate }) => {
      const access = authorizeSnippets(await project(), 'read_snippet');
      return presentSnippets(deps, await paginate(projectSnippetsQuery(deps, Number(access.project.id), readableVisibilities(access), listDates(params))));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/snippets/:snippet_id', summary: 'One project snippet', tags: TAGS, ability: READ, auth: 'optional', params: ONE,
    handler: async ({ params, project }) => presentSnippet(deps, (await readable(await project(), params.snippet_id)).snippet),
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/snippets/:snippet_id/raw', summary: "A project snippet's first file, raw (a binary file's bytes unchanged)", tags: TAGS, ability: READ, auth: 'optional', params: ONE,
    handler: async ({ params, project, reply }) => {
      const { snippet } = await readable(await project(), params.snippet_id);
      return sendRaw(reply, (await snippetFiles(deps.db, [Number(snippet.id)])).get(Number(snippet.id))?.[0]);
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/snippets/:snippet_id/files/:ref/:file_path/raw', summary: "One file of a project snippet, raw (a binary file's bytes unchanged)", tags: TAGS,
    ability: READ, auth: 'optional', params: { ...ONE, ref: p.string.required(), file_path: p.string.required() },
    handler: async ({ params, project, reply }) => {
      const { snippet } = await readable(await project(), params.snippet_id);
      return sendRaw(reply, fileAt((await snippetFiles(deps.db, [Number(snippet.id)])).get(Number(snippet.id)) ?? [], params.ref, params.file_path));
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/snippets', summary: 'Make a project snippet of one or more files', tags: TAGS,
    ability: { project: 'create_snippet' }, bodyLimit: BODY_LIMIT, params: { id: p.string.required(), ...createParams('required') },
    handler: async ({ params, project, actor, request }) => {
      const access = authorizeSnippets(await project(), 'create_snippet');
      const files = filesToCreate(params);
      const snippet = await createSnippet(deps, actor.user, {
        projectId: Number(access.project.id), title: params.title, description: params.description, visibility: params.visibility as SnippetVisibility, files, ...requestDetail(request),
      });
      return presentSnippet(deps, snippet);
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: '/projects/:id/snippets/:snippet_id', summary: "Change a project snippet's title, description, visibility or files", tags: TAGS,
    ability: READ, bodyLimit: BODY_LIMIT, params: { ...ONE, ...UPDATE_PARAMS },
    handler: async ({ params, project, actor }) => {
      const snippet = await writable(await project(), params.snippet_id);
      return presentSnippet(deps, await updateSnippet(deps, snippet, updateChanges(params), actor.user.id));
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/projects/:id/snippets/:snippet_id', summary: 'Delete a project snippet', tags: TAGS, ability: READ, params: ONE,
    handler: async ({ params, project }) => {
      await deleteSnippet(deps, await writable(await project(), params.snippet_id));
      return undefined;
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/snippets/:snippet_id/user_agent_detail', summary: 'The user agent and address that made a project snippet (administrators)', tags: TAGS,
    ability: READ, params: ONE,
    handler: async ({ params, project, actor }) => {
      if (!actor.user.admin) throw new ForbiddenError();
      return userAgentDetail((await readable(await project(), params.snippet_id)).snippet);
    },
  });
}
