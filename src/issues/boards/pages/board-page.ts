// An issue board (GitLab's Plan › Issue boards): a project's at `/<project>/-/boards`, a group's at
// `/groups/<group>/-/boards` over its projects' issues (board-scope.ts). Open, one list per label,
// Closed, side by side; each card links its issue and, for those who may change issues, has a
// "Move to" form (keyboard) that the board script also submits when a card is dropped on another
// list (pointer). The board switcher names every board of the project or group; the first is shown
// at `/-/boards`. One without a board gets GitLab's default one, "Development", on first visit.
import { html, type Html } from '../../../platform/web/html.js';
import { csrfField, type PageContext } from '../../../platform/web/page-route.js';
import { page } from '../../../platform/web/page.js';
import { availableLabelsQuery, labelChip, labelsOfIssues } from '../../../labels/api.js';
import type { IssueRow } from '../../entities.js';
import type { BoardRow } from '../finder.js';
import { boardsQuery, findBoard, listsOfBoard, type ListWithLabel } from '../finder.js';
import { createBoard, DEFAULT_BOARD_NAME } from '../create-board.js';
import { issuesOfList, type ListIssues } from '../board-issues-queries.js';
import type { ListKey } from '../move-issue.js';
import type { BoardScope, Card } from './board-scope.js';

export const BOARDS_PATTERN = /^(?<path>.+?)\/-\/boards(?:\/(?<board>\d{1,15}))?$/;
export const GROUP_BOARDS_PATTERN = /^groups\/(?<path>.+?)\/-\/boards(?:\/(?<board>\d{1,15}))?$/;
export const BOARD_SCRIPT = '/-/assets/boards.js';

/** The board the address names, else the first of the scope (made when there is none). */
export async function boardOf(context: PageContext, scope: BoardScope): Promise<BoardRow> {
  if (context.match.board) return findBoard(context.deps, scope.parent, Number(context.match.board));
  return (await boardsQuery(context.deps, scope.parent).executeTakeFirst()) ?? createBoard(context.deps, scope.parent, DEFAULT_BOARD_NAME);
}

interface Column {
  key: ListKey;
  title: string;
  heading: Html;
  issues: ListIssues;
}

function moveForm(context: PageContext, action: string, card: Card, from: Column, columns: Column[]): Html {
  const id = `move-${card.key}`;
  return html`<form method="post" action="${action}/issues/${card.key}/move" hx-post="${action}/issues/${card.key}/move" hx-target="#board" hx-swap="outerHTML" class="move-issue">${csrfField(context)}<input type="hidden" name="from" value="${String(from.key)}">
<label for="${id}">Move to</label> <select id="${id}" name="to">${columns.filter((column) => column.key !== from.key).map((column) => html`<option value="${String(column.key)}">${column.title}</option>`)}</select> <button type="submit" class="small secondary">Move</button></form>`;
}

async function renderColumns(context: PageContext, scope: BoardScope, board: BoardRow, lists: ListWithLabel[]): Promise<Html> {
  const { deps } = context;
  const labelIds = lists.map(({ label }) => Number(label.id));
  const keys: Array<{ key: ListKey; title: string; heading: Html }> = [
    ...(Number(board.hide_backlog_list) === 1 ? [] : [{ key: 'open' as const, title: 'Open', heading: html`Open` }]),
    ...lists.map(({ list, label }) => ({ key: Number(list.id), title: label.title, heading: labelChip(label) })),
    ...(Number(board.hide_closed_list) === 1 ? [] : [{ key: 'closed' as const, title: 'Closed', heading: html`Closed` }]),
  ];
  const columns: Column[] = await Promise.all(
    keys.map(async (column) => ({ ...column, issues: await issuesOfList(deps, scope.readable, typeof column.key === 'number' ? Number(lists.find(({ list }) => Number(list.id) === column.key)!.label.id) : column.key, labelIds) })),
  );
  const shown: IssueRow[] = columns.flatMap((column) => column.issues.rows);
  const [issueLabels, cardOf] = await Promise.all([labelsOfIssues(deps.db, shown.map((issue) => Number(issue.id))), scope.cards(shown)]);
  const action = `${scope.root}/${board.id}`;
  return html`${columns.map((column, index) => html`<section class="board-list" data-list="${String(column.key)}" aria-labelledby="board-list-${index}">
<h2 id="board-list-${index}">${column.heading} <span class="badge" data-count="${column.issues.count}">${column.issues.count >= 1000 ? '999+' : String(column.issues.count)}</span></h2>
<ul>${column.issues.rows.map((issue) => {
    const card = cardOf(issue);
    return html`<li class="board-card" id="card-${card.key}" data-iid="${issue.iid}"${scope.mayMove ? html` draggable="true"` : ''}>
<a href="${card.href}">${issue.title}</a> <span class="muted">${card.reference}</span>
<p class="card-labels">${(issueLabels.get(Number(issue.id)) ?? []).map((label) => labelChip(label))}</p>
${scope.mayMove && columns.length > 1 ? moveForm(context, action, card, column, columns) : ''}</li>`;
  })}</ul>
${column.issues.count > column.issues.rows.length ? html`<p class="muted">Showing the newest ${column.issues.rows.length}; the issue list has them all.</p>` : ''}
${column.issues.count === 0 ? html`<p class="muted">No issues here.</p>` : ''}
</section>`)}`;
}

/** The part of the page a move replaces (htmx swaps it by its id); `message` is read out as a status. */
export async function renderBoardSection(context: PageContext, scope: BoardScope, board: BoardRow, lists: ListWithLabel[], message?: string): Promise<Html> {
  return html`<div id="board"><p class="visually-hidden" role="status">${message ?? ''}</p><div class="board">${await renderColumns(context, scope, board, lists)}</div></div>`;
}

async function addListForm(context: PageContext, scope: BoardScope, board: BoardRow, lists: ListWithLabel[]): Promise<Html> {
  const taken = new Set(lists.map(({ label }) => Number(label.id)));
  const free = (await (await availableLabelsQuery(context.deps, scope.labelsOf)).limit(200).execute()).filter((label) => !taken.has(Number(label.id)));
  if (free.length === 0) return html`<p class="muted">Every label has a list here. <a href="${scope.labelsUrl}">Create a label</a> to add another list.</p>`;
  return html`<form method="post" action="${scope.root}/${board.id}/lists" class="add-list">${csrfField(context)}<label for="add-list-label">Add a list for the label</label> <select id="add-list-label" name="label_id">${free.map((label) => html`<option value="${label.id}">${label.title}</option>`)}</select> <button type="submit" class="small">Add list</button></form>`;
}

/** A refused board form: which one, what was typed and why. */
export interface BoardFormFailure {
  form: 'new' | 'rename';
  name: string;
  error: string;
}

function nameField(id: string, label: string, value: string, failure: BoardFormFailure | undefined, form: BoardFormFailure['form']): Html {
  const failed = failure?.form === form;
  return html`<label for="${id}">${label}</label> <input type="text" id="${id}" name="name" value="${failed ? failure.name : value}" required maxlength="255"${failed ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''}>${failed ? html`<span class="field-error" id="${id}-error">Name ${failure.error}</span>` : ''}`;
}

/** New board, rename and delete this one, for those who administer boards. */
function boardAdminForms(context: PageContext, scope: BoardScope, board: BoardRow, failure?: BoardFormFailure): Html {
  const self = `${scope.root}/${board.id}`;
  return html`<details class="board-admin"${failure ? html` open` : ''}><summary>Manage boards</summary>
<form method="post" action="${scope.root}" class="actions">${csrfField(context)}${nameField('new-board-name', 'New board', '', failure, 'new')} <button type="submit" class="small">Create board</button></form>
<form method="post" action="${self}/edit" class="actions">${csrfField(context)}${nameField('rename-board-name', 'Rename this board', board.name, failure, 'rename')} <button type="submit" class="small secondary">Rename</button></form>
<form method="post" action="${self}/delete" class="actions" data-confirm="Delete the board ${board.name}? Its lists go with it; issues and labels stay.">${csrfField(context)}<button type="submit" class="small danger">Delete this board</button></form>
</details>`;
}

export async function renderBoard(context: PageContext, scope: BoardScope, failure?: BoardFormFailure) {
  const board = await boardOf(context, scope);
  const [boards, lists] = await Promise.all([boardsQuery(context.deps, scope.parent).limit(100).execute(), listsOfBoard(context.deps, board)]);
  const switcher = boards.length > 1
    ? html`<nav class="tabs" aria-label="Boards">${boards.map((item) => html`<a href="${scope.root}/${item.id}"${Number(item.id) === Number(board.id) ? html` class="active" aria-current="page"` : ''}>${item.name}</a>`)}</nav>`
    : '';
  const body = html`${switcher}
${scope.mayAdminBoards ? boardAdminForms(context, scope, board, failure) : ''}
${scope.mayAddList ? await addListForm(context, scope, board, lists) : ''}
<p class="muted">Issues move between lists with the “Move to” form on each card, or by dragging a card onto another list. Moving into a label’s list swaps the labels; moving into Closed closes the issue.</p>
${await renderBoardSection(context, scope, board, lists)}`;
  return page({ title: `${board.name} · Issue boards · ${scope.name}`, heading: html`<h1>${board.name}</h1>`, body, sidebar: scope.sidebar, scripts: [BOARD_SCRIPT], status: failure ? 400 : 200 });
}
