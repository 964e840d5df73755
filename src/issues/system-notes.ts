// System notes on issues (GitLab's SystemNoteService): one note in the issue's timeline for every
// change — labels, assignees, milestone, due date, confidentiality, lock, title, description, a
// checklist item, closing and reopening — and "mentioned in" on an issue another issue or a comment
// names. Written by domain event listeners in the transaction of the change, so a change made through
// the API, a page, a commit or a merge request is noted the same way, and a rolled-back one is not.
// Label changes are also kept in resource_label_events (issue-metadata.ts) for GitLab's label events API.
import { randomBytes } from 'node:crypto';
import type { Deps } from '../platform/deps.js';
import type { Tx } from '../platform/db/statements.js';
import type { DomainEvent } from '../platform/domain-events.js';
import { ISSUE_REFERENCE } from '../markdown/api.js';
import { changedTask } from './task-list.js';
import { assigneeIdsOf, insertSystemNote, issueIdByIid, issueTexts, labelTitle, milestoneTitle, noteBody, systemNoteExists, usernameOf } from './system-notes-queries.js';

/** At most this many issues of one text get a "mentioned in" note. */
const MAX_CROSS_REFERENCES = 20;

async function write(tx: Tx, deps: Deps, projectId: number, issueId: number, authorId: number, body: string): Promise<void> {
  await tx.all(insertSystemNote({ projectId, issueId, authorId, body, discussionId: randomBytes(20).toString('hex'), now: deps.clock.now() }));
}

/** Markdown's punctuation backslash-escaped, so a title shows as typed inside `**…**`. */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!<>~%@|"]/g, (character) => `\\${character}`);
}

/** `~bug`, `~"needs review"`, or `~12` for a title a quoted reference cannot hold (GitLab's Label#to_reference). */
function labelReference(label: { id: number; title: string }): string {
  if (/^[\w.?&-]+$/.test(label.title)) return `~${label.title}`;
  return label.title.includes('"') ? `~${label.id}` : `~"${label.title}"`;
}

function milestoneReference(milestone: { id: number; title: string }): string {
  return milestone.title.includes('"') ? `%${milestone.id}` : `%"${milestone.title}"`;
}

function sentence(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

async function labelReferences(tx: Tx, ids: number[]): Promise<string[]> {
  const references: string[] = [];
  for (const id of ids) {
    const [row] = await tx.all<{ id: number; title: string }>(labelTitle(id));
    if (row) references.push(labelReference({ id: Number(row.id), title: row.title }));
  }
  return references;
}

async function usernames(tx: Tx, ids: number[]): Promise<string[]> {
  const names: string[] = [];
  for (const id of ids) {
    const [row] = await tx.all<{ username: string }>(usernameOf(id));
    if (row) names.push(`@${row.username}`);
  }
  return names;
}

function idsOf(value: unknown): number[] {
  return Array.isArray(value) ? value.map(Number) : [];
}

/** The notes of one `issue.updated`, in GitLab's wording. */
async function updateNotes(tx: Tx, event: DomainEvent<'issue.updated'>): Promise<string[]> {
  const { changes, previous, current } = event;
  const notes: string[] = [];
  if (changes.includes('title')) notes.push(`changed title from **${escapeMarkdown(String(previous.title ?? ''))}** to **${escapeMarkdown(String(current.title ?? ''))}**`);
  if (changes.includes('description')) {
    const task = changedTask(String(previous.description ?? ''), String(current.description ?? ''));
    notes.push(task ? `marked the checklist item **${escapeMarkdown(task.text)}** as ${task.checked ? 'completed' : 'incomplete'}` : 'changed the description');
  }
  if (changes.includes('labels')) {
    const before = idsOf(previous.labels);
    const after = idsOf(current.labels);
    const added = await labelReferences(tx, after.filter((id) => !before.includes(id)));
    const removed = await labelReferences(tx, before.filter((id) => !after.includes(id)));
    const parts = [
      ...(added.length ? [`added ${added.join(' ')} label${added.length > 1 ? 's' : ''}`] : []),
      ...(removed.length ? [`removed ${removed.join(' ')} label${removed.length > 1 ? 's' : ''}`] : []),
    ];
    if (parts.length) notes.push(parts.join(' and '));
  }
  if (changes.includes('milestone_id')) {
    const id = current.milestone_id === null || current.milestone_id === undefined ? null : Number(current.milestone_id);
    const [row] = id === null ? [] : await tx.all<{ id: number; title: string }>(milestoneTitle(id));
    notes.push(row ? `changed milestone to ${milestoneReference({ id: Number(row.id), title: row.title })}` : 'removed milestone');
  }
  if (changes.includes('due_date')) notes.push(current.due_date ? `changed due date to ${String(current.due_date)}` : 'removed due date');
  if (changes.includes('confidential')) notes.push(Number(current.confidential) === 1 ? 'made the issue confidential' : 'made the issue visible to everyone');
  if (changes.includes('discussion_locked')) notes.push(Number(current.discussion_locked) === 1 ? 'locked this issue' : 'unlocked this issue');
  return notes;
}

async function reassignNote(tx: Tx, event: DomainEvent<'issue.reassigned'>): Promise<string | null> {
  const now = (await tx.all<{ user_id: number }>(assigneeIdsOf(event.issueId))).map((row) => Number(row.user_id));
  const before = event.previousAssigneeIds.map(Number);
  const added = await usernames(tx, now.filter((id) => !before.includes(id)));
  const removed = await usernames(tx, before.filter((id) => !now.includes(id)));
  const parts = [...(added.length ? [`assigned to ${sentence(added)}`] : []), ...(removed.length ? [`unassigned ${sentence(removed)}`] : [])];
  return parts.length ? parts.join(' and ') : null;
}

/** "mentioned in #N" on each other issue of the project that `text` names, once per source. */
async function crossReference(tx: Tx, deps: Deps, source: { projectId: number; issueId: number; iid: number }, text: string, actorId: number): Promise<void> {
  const iids = [...new Set([...text.matchAll(ISSUE_REFERENCE)].map((match) => Number(match[1])))].filter((iid) => iid !== source.iid).slice(0, MAX_CROSS_REFERENCES);
  const body = `mentioned in #${source.iid}`;
  for (const iid of iids) {
    const [target] = await tx.all<{ id: number }>(issueIdByIid(source.projectId, iid));
    if (!target) continue;
    if ((await tx.all(systemNoteExists(Number(target.id), body))).length) continue;
    await write(tx, deps, source.projectId, Number(target.id), actorId, body);
  }
}

async function issueOf(tx: Tx, issueId: number) {
  const [row] = await tx.all<{ id: number; project_id: number; iid: number; title: string; description: string | null }>(issueTexts(issueId));
  return row;
}

export function listenForSystemNotes(deps: Deps): void {
  const { domainEvents } = deps;
  domainEvents.on('issue.updated', async (tx, event) => {
    const actor = event.actorId;
    if (actor === null) return;
    for (const body of await updateNotes(tx, event)) await write(tx, deps, event.projectId, event.issueId, actor, body);
    if (event.changes.includes('description') || event.changes.includes('title')) {
      const issue = await issueOf(tx, event.issueId);
      if (issue) await crossReference(tx, deps, { projectId: event.projectId, issueId: event.issueId, iid: Number(issue.iid) }, `${issue.title}\n${issue.description ?? ''}`, actor);
    }
  });
  domainEvents.on('issue.reassigned', async (tx, event) => {
    const body = event.actorId === null ? null : await reassignNote(tx, event);
    if (body) await write(tx, deps, event.projectId, event.issueId, event.actorId!, body);
  });
  domainEvents.on('issue.closed', async (tx, event) => {
    if (event.actorId !== null) await write(tx, deps, event.projectId, event.issueId, event.actorId, 'closed');
  });
  domainEvents.on('issue.reopened', async (tx, event) => {
    if (event.actorId !== null) await write(tx, deps, event.projectId, event.issueId, event.actorId, 'reopened');
  });
  domainEvents.on('issue.opened', async (tx, event) => {
    const issue = event.actorId === null ? undefined : await issueOf(tx, event.issueId);
    if (issue) await crossReference(tx, deps, { projectId: event.projectId, issueId: event.issueId, iid: Number(issue.iid) }, `${issue.title}\n${issue.description ?? ''}`, event.actorId!);
  });
  domainEvents.on('note.created', async (tx, event) => {
    if (event.noteableType !== 'Issue' || event.system || event.actorId === null) return;
    const [note] = await tx.all<{ body: string }>(noteBody(event.noteId));
    const issue = note ? await issueOf(tx, event.noteableId) : undefined;
    if (note && issue) await crossReference(tx, deps, { projectId: event.projectId, issueId: event.noteableId, iid: Number(issue.iid) }, note.body, event.actorId);
  });
}
