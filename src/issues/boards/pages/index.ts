// The board pages of projects and groups, readable with the issues; the forms check their own abilities.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../platform/deps.js';
import { namespacedPage } from '../../../platform/web/page-route.js';
import { BOARDS_PATTERN, BOARD_SCRIPT, GROUP_BOARDS_PATTERN, renderBoard } from './board-page.js';
import { ADD_LIST_PATTERN, GROUP_ADD_LIST_PATTERN, GROUP_MOVE_PATTERN, MOVE_PATTERN, handleAddList, handleGroupAddList, handleGroupMove, handleMove } from './board-posts.js';
import { groupBoardScope, projectBoardScope } from './board-scope.js';
import { EDIT_BOARD_PATTERN, GROUP_EDIT_BOARD_PATTERN, GROUP_NEW_BOARD_PATTERN, NEW_BOARD_PATTERN, handleEditBoard, handleNewBoard } from './board-admin-posts.js';
import { BOARD_SCRIPT_TEXT } from './board-script.js';

export function boardPages(app: FastifyInstance, deps: Deps): void {
  app.get(BOARD_SCRIPT, { config: { ability: { credential: 'none' } } }, async (_request, reply) => reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(BOARD_SCRIPT_TEXT));
  // A group's boards first: the project patterns would take `groups/<group>` for a project's path.
  const readGroup = { group: 'read_issue_board' } as const;
  namespacedPage(app, deps, { method: 'GET', pattern: GROUP_BOARDS_PATTERN, ability: readGroup, auth: 'optional', handler: async (context) => renderBoard(context, await groupBoardScope(deps, context, await context.group())) });
  namespacedPage(app, deps, { method: 'POST', pattern: GROUP_MOVE_PATTERN, ability: readGroup, handler: async (context) => handleGroupMove(context, await context.group()) });
  namespacedPage(app, deps, { method: 'POST', pattern: GROUP_ADD_LIST_PATTERN, ability: readGroup, handler: async (context) => handleGroupAddList(context, await context.group()) });
  namespacedPage(app, deps, { method: 'POST', pattern: GROUP_NEW_BOARD_PATTERN, ability: readGroup, handler: async (context) => handleNewBoard(context, await groupBoardScope(deps, context, await context.group())) });
  namespacedPage(app, deps, { method: 'POST', pattern: GROUP_EDIT_BOARD_PATTERN, ability: readGroup, handler: async (context) => handleEditBoard(context, await groupBoardScope(deps, context, await context.group())) });
  const read = { project: 'read_issue_board' } as const;
  namespacedPage(app, deps, { method: 'GET', pattern: BOARDS_PATTERN, ability: read, auth: 'optional', handler: async (context) => renderBoard(context, projectBoardScope(context, await context.project())) });
  namespacedPage(app, deps, { method: 'POST', pattern: MOVE_PATTERN, ability: read, handler: async (context) => handleMove(context, await context.project()) });
  namespacedPage(app, deps, { method: 'POST', pattern: ADD_LIST_PATTERN, ability: read, handler: async (context) => handleAddList(context, await context.project()) });
  namespacedPage(app, deps, { method: 'POST', pattern: NEW_BOARD_PATTERN, ability: read, handler: async (context) => handleNewBoard(context, projectBoardScope(context, await context.project())) });
  namespacedPage(app, deps, { method: 'POST', pattern: EDIT_BOARD_PATTERN, ability: read, handler: async (context) => handleEditBoard(context, projectBoardScope(context, await context.project())) });
}
