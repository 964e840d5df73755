// Moving an issue from one list of a board to another (GitLab's Boards::Issues::MoveService): into a
// label list it loses the source list's label and gains the target's; into Open or Closed it loses
// every label of the board's lists; into Closed it is closed, out of Closed reopened. The change goes
// through updateIssue, so it gets the same label and state system notes, events and hooks as any edit.
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { RecordNotFoundError } from '../../platform/errors.js';
import type { IssueRow } from '../entities.js';
import { updateIssue, type UpdateIssueInput } from '../update-issue.js';
import type { BoardRow } from './finder.js';
import { listsOfBoards } from './finder.js';

/** A list of the board: the Open list, the Closed list, or a label list by id. */
export type ListKey = 'open' | 'closed' | number;

export function listKeyOf(value: unknown): ListKey | undefined {
  if (value === 'open' || value === 'closed') return value;
  return typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

export async function moveIssue(deps: Deps, actorId: number, access: ProjectAccess, board: BoardRow, issue: IssueRow, from: ListKey, to: ListKey): Promise<IssueRow> {
  const lists = (await listsOfBoards(deps, [Number(board.id)])).get(Number(board.id)) ?? [];
  const titleOf = (key: ListKey) => {
    if (typeof key !== 'number') return undefined;
    const found = lists.find(({ list }) => Number(list.id) === key);
    if (!found) throw new RecordNotFoundError();
    return found.label.title;
  };
  const source = titleOf(from);
  const target = titleOf(to);
  if (from === to) return issue;
  const input: UpdateIssueInput = {
    project: access.project,
    metadata: {
      addLabels: target === undefined ? [] : [target],
      removeLabels: target === undefined ? lists.map(({ label }) => label.title) : source === undefined ? [] : [source],
      createLabels: false,
    },
  };
  if (to === 'closed' && issue.state === 'opened') input.stateEvent = 'close';
  if (from === 'closed' && to !== 'closed' && issue.state === 'closed') input.stateEvent = 'reopen';
  return updateIssue(deps, actorId, issue, input);
}
