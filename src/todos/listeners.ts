// What to-dos listen to (platform/domain-events.ts). Creating to-dos reads the target and checks who
// may read it, so it is a job (create-todos.ts); resolving is one conditional update, done in the
// event's transaction: the actor's own pending to-dos on a target they acted on (GitLab's
// resolve_todos_for_target for the current user: an edit, a comment, a review, a push), and every
// pending to-do on a target that was closed or merged (Kiln's rule: nothing is left to do there).
import type { Deps } from '../platform/deps.js';
import type { Tx } from '../platform/db/statements.js';
import type { TodoTargetType } from '../platform/db/tables/todos.js';
import { enqueue } from '../platform/jobs/queue.js';
import { addedMentions } from '../notifications/api.js';
import { JOB_CREATE_TODOS, type CreateTodosPayload } from './create-todos.js';
import { resolveTargetTodos, resolveUserTargetTodos } from './todos-queries.js';

function idsIn(values: Record<string, unknown> | undefined, field: string): number[] {
  const list = values?.[field];
  return Array.isArray(list) ? list.map(Number) : [];
}

export function listenForTodos(deps: Deps): void {
  const { domainEvents, clock } = deps;
  const create = (tx: Tx, actorId: number | null, payload: Omit<CreateTodosPayload, 'actorId'>) =>
    actorId === null ? undefined : enqueue(tx, clock, JOB_CREATE_TODOS, { ...payload, actorId });
  const acted = (tx: Tx, actorId: number | null, type: TodoTargetType, id: number) =>
    actorId === null ? undefined : tx.all(resolveUserTargetTodos(actorId, type, id, clock.now()));
  const finished = (tx: Tx, type: TodoTargetType, id: number) => tx.all(resolveTargetTodos(type, id, clock.now()));

  domainEvents.on('issue.opened', async (tx, event) => create(tx, event.actorId, { targetType: 'Issue', targetId: event.issueId, assigneesExcept: [], mentions: {} }));
  domainEvents.on('issue.reassigned', async (tx, event) => {
    await acted(tx, event.actorId, 'Issue', event.issueId);
    await create(tx, event.actorId, { targetType: 'Issue', targetId: event.issueId, assigneesExcept: event.previousAssigneeIds });
  });
  domainEvents.on('issue.updated', async (tx, event) => {
    await acted(tx, event.actorId, 'Issue', event.issueId);
    const added = addedMentions(event);
    if (added.length > 0) await create(tx, event.actorId, { targetType: 'Issue', targetId: event.issueId, mentions: { only: added } });
  });
  domainEvents.on('issue.closed', async (tx, event) => finished(tx, 'Issue', event.issueId));
  domainEvents.on('note.created', async (tx, event) => {
    if (event.system || (event.noteableType !== 'Issue' && event.noteableType !== 'MergeRequest')) return;
    await acted(tx, event.actorId, event.noteableType, event.noteableId);
    await create(tx, event.actorId, { targetType: event.noteableType, targetId: event.noteableId, mentions: { noteId: event.noteId } });
  });

  domainEvents.on('merge_request.opened', async (tx, event) =>
    create(tx, event.actorId, { targetType: 'MergeRequest', targetId: event.mergeRequestId, assigneesExcept: [], reviewersExcept: [], mentions: {} }));
  domainEvents.on('merge_request.updated', async (tx, event) => {
    await acted(tx, event.actorId, 'MergeRequest', event.mergeRequestId);
    const added = addedMentions(event);
    const payload: Omit<CreateTodosPayload, 'actorId'> = { targetType: 'MergeRequest', targetId: event.mergeRequestId };
    if (event.changes.includes('assignees')) payload.assigneesExcept = idsIn(event.previous, 'assignees');
    if (event.changes.includes('reviewers')) payload.reviewersExcept = idsIn(event.previous, 'reviewers');
    if (added.length > 0) payload.mentions = { only: added };
    if (payload.assigneesExcept || payload.reviewersExcept || payload.mentions) await create(tx, event.actorId, payload);
  });
  domainEvents.on('merge_request.approved', async (tx, event) => acted(tx, event.actorId, 'MergeRequest', event.mergeRequestId));
  domainEvents.on('merge_request.closed', async (tx, event) => finished(tx, 'MergeRequest', event.mergeRequestId));
  domainEvents.on('merge_request.merged', async (tx, event) => finished(tx, 'MergeRequest', event.mergeRequestId));
}
