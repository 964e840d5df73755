// Wire shapes of boards and their lists (GitLab's Board and List entities, doc/api/boards.md and
// group_boards.md), fields listed explicitly. The scoping fields (milestone, assignee, labels, weight)
// are GitLab's paid tiers': always empty here.
import type { NamespaceRow } from '../../platform/auth/subjects.js';
import type { Deps } from '../../platform/deps.js';
import { groupWebUrl, projectSimpleEntity } from '../../accounts/api.js';
import { labelBasicEntity, type LabelRow } from '../../labels/api.js';
import type { BoardListRow, BoardParent, BoardRow } from './finder.js';

export function listEntity(list: BoardListRow, label: LabelRow) {
  return { id: Number(list.id), label: labelBasicEntity(label), position: Number(list.position), max_issue_count: 0, max_issue_weight: 0, limit_metric: null };
}

function groupBasic(config: Deps['config'], group: NamespaceRow) {
  return { id: Number(group.id), web_url: groupWebUrl(config.baseUrl, group.full_path), name: group.name };
}

export function boardEntity(config: Deps['config'], parent: BoardParent, board: BoardRow, lists: Array<{ list: BoardListRow; label: LabelRow }>) {
  return {
    id: Number(board.id),
    name: board.name,
    hide_backlog_list: Number(board.hide_backlog_list) === 1,
    hide_closed_list: Number(board.hide_closed_list) === 1,
    project: 'project' in parent ? projectSimpleEntity(config, parent.project, parent.namespace) : null,
    lists: lists.map(({ list, label }) => listEntity(list, label)),
    group: 'group' in parent ? groupBasic(config, parent.group) : null,
    milestone: null,
    assignee: null,
    labels: [],
    weight: null,
  };
}
