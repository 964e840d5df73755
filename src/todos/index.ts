// To-do items (issue 36): created from issue and merge request events, listed and marked done through
// GitLab's to-dos API and the /dashboard/todos page, counted in the top bar.
import type { Feature } from '../platform/feature.js';
import { listenForTodos } from './listeners.js';
import { JOB_CREATE_TODOS, createTodos } from './create-todos.js';
import { todosRoutes } from './routes.js';
import { todosPages } from './pages.js';
import { pendingTodosCount } from './finder.js';
import { todoButton, todoButtonPages } from './todo-button.js';
import { issueHooks } from '../issues/api.js';
import { mergeRequestHooks } from '../merge-requests/api.js';

export const todosFeature: Feature = {
  name: 'todos',
  setup(deps) {
    listenForTodos(deps);
    deps.auth.todosCount = (user) => pendingTodosCount(deps, user);
    issueHooks(deps).todoButton = (context, issue, self) => todoButton(context, { type: 'Issue', id: issue.id, projectId: issue.projectId }, self);
    mergeRequestHooks(deps).todoButton = (context, mr, self) => todoButton(context, { type: 'MergeRequest', id: mr.id, projectId: mr.projectId }, self);
  },
  routes(app, deps) {
    todosRoutes(app, deps);
    todosPages(app, deps);
    todoButtonPages(app, deps);
  },
  jobs: { [JOB_CREATE_TODOS]: createTodos },
};
