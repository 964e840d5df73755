// Moving an issue from one list of a board to another (GitLab's Boards::Issues::MoveService): into a
// label list it loses the source list's label and gains the target's; into Open or Closed it loses
// every label of the board's lists; into Closed it is closed, out of Closed reopened. The change goes
// through updateIssue, so it gets the same label and state system notes, events and hooks as any edit.
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { RecordNotFoundError } from '../../platform/errors.js';
import type { IssueRow } from '../entities.js';
import { updateIssue, type UpdateIssueInput } from '../update-issue.js';
import type { ListWithLabel } from './finder.js';

/** A list of the board: the Open list, the Closed list, or a label list by id. */
export type ListKey = 'open' | 'closed' | number;

export function listKeyOf(value: unknown): ListKey | undefined {
  if (value === 'open' || value === 'closed') return value;
  return typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

/** `lists`: the board's label lists (listsOfBoard), which the caller also renders. */
export async function moveIssue(deps: Deps, actorId: number, access: ProjectAccess, lists: ListWithLabel[], issue: IssueRow, from: ListKey, to: ListKey): Promise<IssueRow> {
  // By id, not title: a project label and a group label may share a title (GitLab's MoveService uses ids).
  const labelOf = (key: ListKey) => {
    if (typeof key !== 'number') return undefined;
    const found = lists.find(({ list }) => Number(list.id) === key);
    if (!found) throw new RecordNotFoundError();
    return Number(found.label.id);
  };
  const source = labelOf(from);
  const target = labelOf(to);
  if (from === to) return issue;
  const input: UpdateIssueInput = {
    project: access.project,
    metadata: {
      addLabelIds: target === undefined ? [] : [target],
      removeLabelIds: target === undefined ? lists.map(({ label }) => Number(label.id)) : source === undefined ? [] : [source],
    },
  };
  if (to === 'closed' && issue.state === 'opened') input.stateEvent = 'close';
  if (from === 'closed' && to !== 'closed' && issue.state === 'closed') input.stateEvent = 'reopen';
  return updateIssue(deps, actorId, issue, input);
}
