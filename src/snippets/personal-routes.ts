// Personal snippets (doc/api/snippets.md; lib/api/snippets.rb): the caller's own, the public ones, all
// that the caller may read (every one for administrators); one by id, its raw text and its files';
// made by any signed-in user, changed and deleted by their author (or an administrator).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { ForbiddenError, NotFoundError } from '../platform/errors.js';
import type { SnippetVisibility } from '../platform/db/tables/snippets.js';
import { allSnippetsQuery, authoredSnippetsQuery, findPersonalSnippet, publicSnippetsQuery, snippetFiles } from './finder.js';
import { presentSnippet, presentSnippets } from './entities.js';
import { canReadSnippet, canUpdateSnippet } from './snippet-policy.js';
import { createSnippet } from './create-snippet.js';
import { updateSnippet } from './update-snippet.js';
import { deleteSnippet } from './delete-snippet.js';
import { filesToCreate } from './snippet-input.js';
import { createParams, fileAt, LIST_PARAMS, listDates, sendRaw, UPDATE_PARAMS, updateChanges } from './snippet-params.js';
import { requestDetail, userAgentDetail } from '../platform/http/user-agent-detail.js';

const TAGS = ['snippets'];
const ONE = { id: p.integer.required() };
const BODY_LIMIT = 12 * 1024 * 1024;

export function personalSnippetRoutes(app: FastifyInstance, deps: Deps): void {
  /** A personal snippet the caller reads, or 404 (an unreadable one is not found, as GitLab answers). */
  async function readable(id: number, user: Parameters<typeof canReadSnippet>[0]) {
    const snippet = await findPersonalSnippet(deps.db, id);
    if (!canReadSnippet(user, snippet, null)) throw new NotFoundError('Snippet');
    return snippet;
  }

  const lists = [
    ['', "The caller's snippets, newest first", (user: { id: number; admin: boolean }, dates: ReturnType<typeof listDates>) => authoredSnippetsQuery(deps, user.id, dates)],
    ['/public', 'Public personal snippets', (_user: unknown, dates: ReturnType<typeof listDates>) => publicSnippetsQuery(deps, dates)],
  ] as const;
  for (const [suffix, summary, query] of lists) {
    apiRoute(app, deps, {
      method: 'GET', url: `/snippets${suffix}`, summary, tags: TAGS, paginated: true, ability: { instance: 'log_in' }, params: LIST_PARAMS,
      handler: async ({ params, actor, paginate }) => presentSnippets(deps, await paginate(query(actor.user, listDates(params)))),
    });
  }

  apiRoute(app, deps, {
    method: 'GET', url: '/snippets/all', summary: 'Every snippet the caller may read (all of them for administrators)', tags: TAGS, paginated: true,
    ability: { instance: 'log_in' }, params: { ...LIST_PARAMS, repository_storage: p.string.optional() },
    handler: async ({ params, actor, paginate }) => presentSnippets(deps, await paginate(allSnippetsQuery(deps, actor.user, listDates(params), params.repository_storage))),
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/snippets/:id', summary: 'One personal snippet', tags: TAGS, ability: { instance: 'read_instance' }, auth: 'optional', params: ONE,
    handler: async ({ params, principal }) => presentSnippet(deps, await readable(params.id, principal?.user ?? null)),
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/snippets/:id/raw', summary: "A personal snippet's first file, raw (a binary file's bytes unchanged)", tags: TAGS, ability: { instance: 'read_instance' }, auth: 'optional', params: ONE,
    handler: async ({ params, principal, reply }) => {
      const snippet = await readable(params.id, principal?.user ?? null);
      return sendRaw(reply, (await snippetFiles(deps.db, [Number(snippet.id)])).get(Number(snippet.id))?.[0]);
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/snippets/:id/files/:ref/:file_path/raw', summary: "One file of a personal snippet, raw (a binary file's bytes unchanged)", tags: TAGS,
    ability: { instance: 'read_instance' }, auth: 'optional', params: { ...ONE, ref: p.string.required(), file_path: p.string.required() },
    handler: async ({ params, principal, reply }) => {
      const snippet = await readable(params.id, principal?.user ?? null);
      return sendRaw(reply, fileAt((await snippetFiles(deps.db, [Number(snippet.id)])).get(Number(snippet.id)) ?? [], params.ref, params.file_path));
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/snippets', summary: 'Make a personal snippet of one or more files', tags: TAGS, ability: { instance: 'log_in' },
    bodyLimit: BODY_LIMIT, params: createParams('optional'),
    handler: async ({ params, actor, request }) => {
      const files = filesToCreate(params);
      const snippet = await createSnippet(deps, actor.user, {
        projectId: null, title: params.title, description: params.description, visibility: params.visibility as SnippetVisibility, files, ...requestDetail(request),
      });
      return presentSnippet(deps, snippet);
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: '/snippets/:id', summary: "Change a personal snippet's title, description, visibility or files", tags: TAGS,
    ability: { instance: 'log_in' }, bodyLimit: BODY_LIMIT, params: { ...ONE, ...UPDATE_PARAMS },
    handler: async ({ params, actor }) => {
      const snippet = await readable(params.id, actor.user);
      if (!canUpdateSnippet(actor.user, snippet, null)) throw new ForbiddenError();
      return presentSnippet(deps, await updateSnippet(deps, snippet, updateChanges(params), actor.user.id));
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/snippets/:id', summary: 'Delete a personal snippet', tags: TAGS, ability: { instance: 'log_in' }, params: ONE,
    handler: async ({ params, actor }) => {
      const snippet = await readable(params.id, actor.user);
      if (!canUpdateSnippet(actor.user, snippet, null)) throw new ForbiddenError();
      await deleteSnippet(deps, snippet);
      return undefined;
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/snippets/:id/user_agent_detail', summary: 'The user agent and address that made a snippet (administrators)', tags: TAGS,
    ability: { instance: 'admin_all_resources' }, params: ONE,
    handler: async ({ params }) => userAgentDetail(await findPersonalSnippet(deps.db, params.id)),
  });
}
