// Snippet repository storage moves (GitLab's lib/api/snippet_repository_storage_moves.rb, GitLab 13.8),
// administrators only (401 without a user, 403 for everyone else, before the snippet is looked up):
// the moves of every snippet or of one, one move, a move of one snippet's repository and a bulk
// move of every snippet repository on a shard. The moving is the repositories feature's (the group
// wikis' machinery, move-kinds.ts): the snippet is read-only meanwhile, its pushes refused.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { NotFoundError } from '../platform/errors.js';
import {
  basicStorageMoveEntity, findMove, listMovesQuery, moveRows, scheduleBulkStorageMoves, scheduleStorageMove, shardNames, SNIPPET_MOVES, type MoveRow,
} from '../repositories/api.js';
import { findAnySnippet, type SnippetRow } from './finder.js';
import { presentSnippets } from './entities.js';

const tags = ['snippet_repository_storage_moves'];
const ADMIN = { instance: 'admin_all_resources' } as const;

/** GitLab's Entities::BasicSnippet: the snippet entity without its files. */
function basicSnippet(snippet: Awaited<ReturnType<typeof presentSnippets>>[number]) {
  const { id, title, description, visibility, author, created_at, updated_at, project_id, web_url, raw_url, ssh_url_to_repo, http_url_to_repo } = snippet;
  return { id, title, description, visibility, author, created_at, updated_at, project_id, web_url, raw_url, ssh_url_to_repo, http_url_to_repo };
}

/** Moves with their snippets (one query for the page's snippets). */
async function present(deps: Deps, moves: MoveRow[]) {
  const ids = [...new Set(moves.map((move) => move.container_id))];
  const rows: SnippetRow[] = ids.length ? await deps.db.selectFrom('snippets').selectAll().where('id', 'in', ids).execute() : [];
  const snippets = new Map((await presentSnippets(deps, rows)).map((snippet) => [snippet.id, basicSnippet(snippet)]));
  return moves.map((move) => ({ ...basicStorageMoveEntity(move), snippet: snippets.get(move.container_id) ?? null }));
}

/** Any snippet, personal or a project's, by id (GitLab's `Snippet.find_by(id:)`): else "404 Snippet Not Found". */
async function snippetById(deps: Deps, id: string): Promise<SnippetRow> {
  if (!/^\d{1,15}$/.test(id)) throw new NotFoundError('Snippet');
  return findAnySnippet(deps.db, Number(id));
}

export function snippetStorageMoveRoutes(app: FastifyInstance, deps: Deps): void {
  const storageNames = shardNames(deps.config.storages);

  apiRoute(app, deps, {
    method: 'GET', url: '/snippet_repository_storage_moves', summary: 'List every snippet repository storage move, newest first', tags, ability: ADMIN, paginated: true,
    handler: async (ctx) => present(deps, moveRows(await ctx.paginate(listMovesQuery(deps, SNIPPET_MOVES)))),
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/snippet_repository_storage_moves/:repository_storage_move_id', summary: 'Show one snippet repository storage move', tags, ability: ADMIN,
    params: { repository_storage_move_id: p.integer.required() },
    handler: async (ctx) => (await present(deps, [await findMove(deps, SNIPPET_MOVES, ctx.params.repository_storage_move_id)]))[0],
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/snippet_repository_storage_moves', summary: 'Schedule a move for every snippet repository on a shard', tags, ability: ADMIN, status: 202,
    params: { source_storage_name: p.string.required({ values: storageNames }), destination_storage_name: p.string.optional({ values: storageNames }) },
    handler: async (ctx) => {
      await scheduleBulkStorageMoves(deps, SNIPPET_MOVES, { sourceStorageName: ctx.params.source_storage_name, destinationStorageName: ctx.params.destination_storage_name });
      return { message: '202 Accepted' };
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/snippets/:id/repository_storage_moves', summary: "List a snippet's repository storage moves, newest first", tags, ability: ADMIN, paginated: true,
    params: { id: p.string.required() },
    handler: async (ctx) => {
      const snippet = await snippetById(deps, ctx.params.id);
      return present(deps, moveRows(await ctx.paginate(listMovesQuery(deps, SNIPPET_MOVES, { containerId: Number(snippet.id) }))));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/snippets/:id/repository_storage_moves/:repository_storage_move_id', summary: "Show one of a snippet's repository storage moves", tags, ability: ADMIN,
    params: { id: p.string.required(), repository_storage_move_id: p.integer.required() },
    handler: async (ctx) => {
      const snippet = await snippetById(deps, ctx.params.id);
      return (await present(deps, [await findMove(deps, SNIPPET_MOVES, ctx.params.repository_storage_move_id, Number(snippet.id))]))[0];
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/snippets/:id/repository_storage_moves', summary: "Schedule a move of a snippet's repository (destination by weight when omitted)", tags, ability: ADMIN,
    params: { id: p.string.required(), destination_storage_name: p.string.optional() },
    handler: async (ctx) => {
      const snippet = await snippetById(deps, ctx.params.id);
      const move = await scheduleStorageMove(deps, { kind: SNIPPET_MOVES, containerId: Number(snippet.id), destinationStorageName: ctx.params.destination_storage_name });
      return (await present(deps, [move]))[0];
    },
  });
}
