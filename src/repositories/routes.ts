// The six group repository storage move endpoints (spec "Group repository storage moves";
// GitLab's REST API documentation), administrators only: 401 without a user, 403 for everyone else.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { findGroup } from '../accounts/api.js';
import { listMovesQuery, findMove, moveRows, withGroups } from './finder.js';
import { storageMoveEntity } from './entities.js';
import { scheduleStorageMove } from './schedule-storage-move.js';
import { scheduleBulkStorageMoves } from './schedule-bulk-storage-moves.js';
import { shardNames } from './shards.js';
import { GROUP_MOVES } from './move-kinds.js';
import type { MoveRow } from './move-kinds.js';

const tags = ['group_repository_storage_moves'];
// Checked before the group is looked up, as GitLab's `authenticated_as_admin!`: 403, never 404, for others.
const ADMIN = { instance: 'admin_all_resources' } as const;

export function storageMoveRoutes(app: FastifyInstance, deps: Deps): void {
  const present = async (moves: MoveRow[]) => (await withGroups(deps, moves)).map((move) => storageMoveEntity(deps.config.baseUrl, move));
  const presentOne = async (move: MoveRow) => (await present([move]))[0];
  const storageNames = shardNames(deps.config.storages);

  apiRoute(app, deps, {
    method: 'GET',
    url: '/group_repository_storage_moves',
    summary: 'List every group repository storage move, newest first',
    tags,
    ability: ADMIN,
    paginated: true,
    handler: async (ctx) => {
      return present(moveRows(await ctx.paginate(listMovesQuery(deps, GROUP_MOVES))));
    },
  });

  apiRoute(app, deps, {
    method: 'GET',
    url: '/group_repository_storage_moves/:repository_storage_id',
    summary: 'Show one group repository storage move',
    tags,
    ability: ADMIN,
    params: { repository_storage_id: p.integer.required() },
    handler: async (ctx) => {
      return presentOne(await findMove(deps, GROUP_MOVES, ctx.params.repository_storage_id));
    },
  });

  apiRoute(app, deps, {
    method: 'POST',
    url: '/group_repository_storage_moves',
    summary: 'Schedule a move for every group repository on a shard',
    tags,
    ability: ADMIN,
    status: 202,
    params: {
      source_storage_name: p.string.required({ values: storageNames }),
      destination_storage_name: p.string.optional({ values: storageNames }),
    },
    handler: async (ctx) => {
      await scheduleBulkStorageMoves(deps, GROUP_MOVES, { sourceStorageName: ctx.params.source_storage_name, destinationStorageName: ctx.params.destination_storage_name });
      // GitLab's `accepted!` helper (GitLab's REST API documentation).
      return { message: '202 Accepted' };
    },
  });

  apiRoute(app, deps, {
    method: 'GET',
    url: '/groups/:group_id/repository_storage_moves',
    summary: "List a group's repository storage moves, newest first",
    tags,
    ability: ADMIN,
    paginated: true,
    params: { group_id: p.string.required() },
    handler: async (ctx) => {
      const { group } = await findGroup(deps, ctx.actor, ctx.params.group_id);
      return present(moveRows(await ctx.paginate(listMovesQuery(deps, GROUP_MOVES, { containerId: Number(group.id) }))));
    },
  });

  apiRoute(app, deps, {
    method: 'GET',
    url: '/groups/:group_id/repository_storage_moves/:repository_storage_id',
    summary: "Show one of a group's repository storage moves",
    tags,
    ability: ADMIN,
    params: { group_id: p.string.required(), repository_storage_id: p.integer.required() },
    handler: async (ctx) => {
      const { group } = await findGroup(deps, ctx.actor, ctx.params.group_id);
      return presentOne(await findMove(deps, GROUP_MOVES, ctx.params.repository_storage_id, Number(group.id)));
    },
  });

  apiRoute(app, deps, {
    method: 'POST',
    url: '/groups/:group_id/repository_storage_moves',
    summary: "Schedule a move of a group's repository (destination by weight when omitted)",
    tags,
    ability: ADMIN,
    // gitbeaker also sends source_storage_name and group_id in the body (docs/clients.md): ignored.
    params: { group_id: p.string.required(), destination_storage_name: p.string.optional() },
    handler: async (ctx) => {
      const { group } = await findGroup(deps, ctx.actor, ctx.params.group_id);
      return presentOne(await scheduleStorageMove(deps, { kind: GROUP_MOVES, containerId: Number(group.id), destinationStorageName: ctx.params.destination_storage_name }));
    },
  });
}
