// GitLab's to-dos API (doc/api/todos.md, lib/api/todos.rb): the caller's list with filters, marking
// one or all done, and "add a to-do" on an issue or merge request they can read.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { RecordNotFoundError } from '../platform/errors.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { findReadableIssue } from '../issues/api.js';
import { TODO_TYPES, findMergeRequestTarget, findOwnTodo, todosQuery } from './finder.js';
import { presentTodos } from './entities.js';
import { markAllTodosDone, markTodosDone } from './mark-todos-done.js';
import { markTodo } from './mark-todo.js';

const TAGS = ['todos'];

async function presentOne(deps: Deps, user: { id: number; username: string }, row: Parameters<typeof presentTodos>[1][number] | undefined) {
  const [todo] = row ? await presentTodos(deps, [row]) : [];
  if (!todo) throw new RecordNotFoundError();
  return todo;
}

/** A new `marked` to-do, or 304 Not Modified when the caller already has a pending one on the target. */
async function answerMarked(deps: Deps, reply: FastifyReply, user: AuthUser, id: number | null) {
  if (id === null) {
    reply.code(304).send();
    return reply;
  }
  return presentOne(deps, user, await findOwnTodo(deps, user, id));
}

export function todosRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'GET', url: '/todos', summary: "The caller's to-do items", tags: TAGS, paginated: true,
    ability: { instance: 'log_in' },
    params: {
      action: p.string.optional(), author_id: p.integer.optional(), project_id: p.integer.optional(), group_id: p.integer.optional(),
      state: p.string.optional({ values: ['pending', 'done'] }), type: p.string.optional({ values: [...TODO_TYPES] }),
    },
    handler: async ({ params, actor, paginate }) => {
      const user = actor.user;
      const rows = await paginate(await todosQuery(deps, user, {
        action: params.action, authorId: params.author_id, projectId: params.project_id, groupId: params.group_id, state: params.state as 'pending' | 'done' | undefined, type: params.type,
      }));
      return presentTodos(deps, rows);
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/todos/:id/mark_as_done', summary: 'Mark one of the caller\'s to-do items done', tags: TAGS,
    ability: { instance: 'log_in' },
    params: { id: p.integer.required() },
    handler: async ({ params, actor }) => {
      await markTodosDone(deps, actor.user, [params.id]);
      return presentOne(deps, actor.user, await findOwnTodo(deps, actor.user, params.id));
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/todos/mark_as_done', summary: "Mark all the caller's to-do items done", tags: TAGS,
    ability: { instance: 'log_in' },
    handler: async ({ actor }) => {
      await markAllTodosDone(deps, actor.user);
      return undefined;
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/issues/:issue_iid/todo', summary: 'Add a to-do item for an issue', tags: TAGS,
    ability: { project: 'read_issue' },
    params: { id: p.string.required(), issue_iid: p.integer.required() },
    handler: async ({ params, actor, project, reply }) => {
      const access = await project();
      const issue = await findReadableIssue(deps, access, params.issue_iid);
      return answerMarked(deps, reply, actor.user, await markTodo(deps, actor.user, { type: 'Issue', id: Number(issue.id), projectId: Number(issue.project_id) }));
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/merge_requests/:merge_request_iid/todo', summary: 'Add a to-do item for a merge request', tags: TAGS,
    ability: { project: 'read_merge_request' },
    params: { id: p.string.required(), merge_request_iid: p.integer.required() },
    handler: async ({ params, actor, project, reply }) => {
      const access = await project();
      const mr = await findMergeRequestTarget(deps, Number(access.project.id), params.merge_request_iid);
      return answerMarked(deps, reply, actor.user, await markTodo(deps, actor.user, { type: 'MergeRequest', id: Number(mr.id), projectId: Number(mr.target_project_id) }));
    },
  });
}
