// System notes on issues (GitLab's SystemNoteService): one note in the issue's timeline for every
// change — labels, assignees, milestone, due date, confidentiality, lock, title, description, a
// checklist item, closing and reopening (the "mentioned in" notes: cross-references.ts). Written by domain event listeners in the transaction of the change, so a change made through
// the API, a page, a commit or a merge request is noted the same way, and a rolled-back one is not.
// Label changes are also kept in resource_label_events (issue-metadata.ts) for GitLab's label events API.
import { randomBytes } from 'node:crypto';
import type { Deps } from '../platform/deps.js';
import type { Tx } from '../platform/db/statements.js';
import type { DomainEvent } from '../platform/domain-events.js';
import { changedTask } from './task-list.js';
import { assigneeIdsOf, insertSystemNote, labelTitle, milestoneTitle, noteBody, usernameOf } from './system-notes-queries.js';
import { MAY_REFERENCE, enqueueCrossReferences } from './cross-references.js';

/** One system note on an issue, in the transaction of the change it records. */
export async function writeSystemNote(tx: Tx, deps: Deps, projectId: number, issueId: number, authorId: number, body: string): Promise<void> {
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

export function listenForSystemNotes(deps: Deps): void {
  const { domainEvents } = deps;
  domainEvents.on('issue.updated', async (tx, event) => {
    const actor = event.actorId;
    if (actor === null) return;
    for (const body of await updateNotes(tx, event)) await writeSystemNote(tx, deps, event.projectId, event.issueId, actor, body);
    if (event.changes.includes('description') || event.changes.includes('title')) await enqueueCrossReferences(tx, deps, { actorId: actor, source: 'Issue', id: event.issueId });
  });
  domainEvents.on('issue.reassigned', async (tx, event) => {
    const body = event.actorId === null ? null : await reassignNote(tx, event);
    if (body) await writeSystemNote(tx, deps, event.projectId, event.issueId, event.actorId!, body);
  });
  domainEvents.on('issue.closed', async (tx, event) => {
    if (event.actorId !== null) await writeSystemNote(tx, deps, event.projectId, event.issueId, event.actorId, 'closed');
  });
  domainEvents.on('issue.reopened', async (tx, event) => {
    if (event.actorId !== null) await writeSystemNote(tx, deps, event.projectId, event.issueId, event.actorId, 'reopened');
  });
  domainEvents.on('issue.opened', async (tx, event) => {
    if (event.actorId !== null) await enqueueCrossReferences(tx, deps, { actorId: event.actorId, source: 'Issue', id: event.issueId });
  });
  domainEvents.on('merge_request.opened', async (tx, event) => {
    if (event.actorId !== null) await enqueueCrossReferences(tx, deps, { actorId: event.actorId, source: 'MergeRequest', id: event.mergeRequestId });
  });
  domainEvents.on('merge_request.updated', async (tx, event) => {
    if (event.actorId !== null && (event.changes.includes('title') || event.changes.includes('description'))) await enqueueCrossReferences(tx, deps, { actorId: event.actorId, source: 'MergeRequest', id: event.mergeRequestId });
  });
  domainEvents.on('note.created', async (tx, event) => {
    if (event.system || event.actorId === null || event.noteableType === 'AlertManagement::Alert') return;
    // Most comments name nothing: no job for them.
    const [note] = await tx.all<{ body: string }>(noteBody(event.noteId));
    if (note && MAY_REFERENCE.test(note.body)) await enqueueCrossReferences(tx, deps, { actorId: event.actorId, source: 'Note', id: event.noteId });
  });
}
