// The project board pages, readable with the issues; the forms check their own abilities.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../platform/deps.js';
import { namespacedPage } from '../../../platform/web/page-route.js';
import { BOARDS_PATTERN, BOARD_SCRIPT, renderBoard } from './board-page.js';
import { ADD_LIST_PATTERN, MOVE_PATTERN, handleAddList, handleMove } from './board-posts.js';
import { BOARD_SCRIPT_TEXT } from './board-script.js';

export function boardPages(app: FastifyInstance, deps: Deps): void {
  const read = { project: 'read_issue_board' } as const;
  app.get(BOARD_SCRIPT, { config: { ability: { credential: 'none' } } }, async (_request, reply) => reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(BOARD_SCRIPT_TEXT));
  namespacedPage(app, deps, { method: 'GET', pattern: BOARDS_PATTERN, ability: read, auth: 'optional', handler: async (context) => renderBoard(context, await context.project()) });
  namespacedPage(app, deps, { method: 'POST', pattern: MOVE_PATTERN, ability: read, handler: async (context) => handleMove(context, await context.project()) });
  namespacedPage(app, deps, { method: 'POST', pattern: ADD_LIST_PATTERN, ability: read, handler: async (context) => handleAddList(context, await context.project()) });
}
