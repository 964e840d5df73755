// The issue page's sidebar (GitLab's issuable sidebar): assignees, labels, milestone, due date,
// confidentiality and lock, shown to every reader; to those who may set them (set_issue_metadata),
// each comes with a small form. The forms post to `…/sidebar` and work without JavaScript (the page
// comes back); with htmx they swap the sidebar and the timeline in place.
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { html, type Html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import type { PolicyIssue } from '../finder.js';
import type { SidebarData } from './sidebar-data.js';
import { labelChip } from '../../labels/api.js';

export interface SidebarInput {
  context: PageContext;
  access: ProjectAccess;
  issue: PolicyIssue;
  data: SidebarData;
  editable: boolean;
  /** The reader's to-do button (the todos feature's hook), empty for anonymous readers. */
  todo: Html;
  /** A refused change, shown in its section. */
  error?: { field: string; message: string };
}

function fieldForm(input: SidebarInput, field: string, body: Html, summary: string): Html {
  const self = `/${input.access.project.full_path}/-/issues/${input.issue.iid}`;
  const open = input.error?.field === field;
  return html`<details${open ? html` open` : ''}><summary>${summary}</summary><form method="post" action="${self}/sidebar" hx-post="${self}/sidebar" hx-target="#issue-sidebar" hx-swap="outerHTML" class="sidebar-form" data-field="${field}">${csrfField(input.context)}<input type="hidden" name="field" value="${field}">${body}</form></details>`;
}

function fieldError(input: SidebarInput, field: string, id: string): Html {
  return input.error?.field === field ? html`<p class="field-error" id="${id}" role="alert">${input.error.message}</p>` : html``;
}

function assignees(input: SidebarInput, multiple: boolean): Html {
  const { data, editable } = input;
  const shown = data.assignees.length ? html`<ul>${data.assignees.map((user) => html`<li><a href="/${user.username}">${user.name}</a> <span class="muted">@${user.username}</span></li>`)}</ul>` : html`<p class="muted">None</p>`;
  if (!editable || !data.offered) return html`<section data-section="assignees"><h2>Assignee${multiple ? 's' : ''}</h2>${shown}</section>`;
  const current = new Set(data.assignees.map((user) => Number(user.id)));
  const options = data.offered.people.map((user) => html`<option value="${user.id}"${current.has(Number(user.id)) ? html` selected` : ''}>${user.name} (@${user.username})</option>`);
  const control = multiple
    ? html`<label for="sidebar-assignees">Assignees</label><select id="sidebar-assignees" name="assignee_ids[]" multiple size="5">${options}</select>`
    : html`<label for="sidebar-assignees">Assignee</label><select id="sidebar-assignees" name="assignee_ids[]"><option value="0">Unassigned</option>${options}</select>`;
  return html`<section data-section="assignees"><h2>Assignee${multiple ? 's' : ''}</h2>${shown}${fieldForm(input, 'assignees', html`${control} <button type="submit" class="small">Save</button>`, 'Edit assignees')}</section>`;
}

function labels(input: SidebarInput): Html {
  const { data, editable } = input;
  const base = `/${input.access.project.full_path}/-/issues`;
  const shown = data.labels.length ? html`<p>${data.labels.map((label) => labelChip(label, `${base}?label_name=${encodeURIComponent(label.title)}`))}</p>` : html`<p class="muted">None</p>`;
  if (!editable || !data.offered) return html`<section data-section="labels"><h2>Labels</h2>${shown}</section>`;
  const current = new Set(data.labels.map((label) => Number(label.id)));
  const body = data.offered.labels.length
    ? html`<fieldset><legend>Labels</legend>${data.offered.labels.map((label) => html`<label><input type="checkbox" name="label_ids[]" value="${label.id}"${current.has(Number(label.id)) ? html` checked` : ''}> ${labelChip(label)}</label>`)}</fieldset><button type="submit" class="small">Save</button>`
    : html`<p class="muted">This project has no labels yet. <a href="/${input.access.project.full_path}/-/labels/new">Create a label</a>.</p>`;
  return html`<section data-section="labels"><h2>Labels</h2>${shown}${fieldForm(input, 'labels', body, 'Edit labels')}</section>`;
}

function milestone(input: SidebarInput): Html {
  const { data, editable } = input;
  const current = data.milestone;
  const link = current ? (current.project_id !== null ? `/${input.access.project.full_path}/-/milestones/${current.iid}` : undefined) : undefined;
  const shown = current ? html`<p>${link ? html`<a href="${link}">${current.title}</a>` : current.title}</p>` : html`<p class="muted">None</p>`;
  if (!editable || !data.offered) return html`<section data-section="milestone"><h2>Milestone</h2>${shown}</section>`;
  const options = data.offered.milestones.map((row) => html`<option value="${row.id}"${current && Number(current.id) === Number(row.id) ? html` selected` : ''}>${row.title}</option>`);
  const body = html`<label for="sidebar-milestone">Milestone</label><select id="sidebar-milestone" name="milestone_id"><option value="">No milestone</option>${options}</select> <button type="submit" class="small">Save</button>${data.offered.milestones.length ? '' : html`<p class="muted">No open milestones.</p>`}`;
  return html`<section data-section="milestone"><h2>Milestone</h2>${shown}${fieldForm(input, 'milestone', body, 'Edit milestone')}</section>`;
}

function dueDate(input: SidebarInput): Html {
  const { issue, editable } = input;
  const shown = issue.due_date ? html`<p><time datetime="${issue.due_date}">${issue.due_date}</time></p>` : html`<p class="muted">None</p>`;
  if (!editable) return html`<section data-section="due-date"><h2>Due date</h2>${shown}</section>`;
  const invalid = input.error?.field === 'due_date';
  const body = html`<label for="sidebar-due-date">Due date</label><input type="date" id="sidebar-due-date" name="due_date" value="${issue.due_date ?? ''}"${invalid ? html` aria-invalid="true" aria-describedby="sidebar-due-date-error"` : ''}>${fieldError(input, 'due_date', 'sidebar-due-date-error')} <button type="submit" class="small">Save</button>${issue.due_date ? html` <button type="submit" name="clear" value="1" class="small secondary">Remove due date</button>` : ''}`;
  return html`<section data-section="due-date"><h2>Due date</h2>${shown}${fieldForm(input, 'due_date', body, 'Edit due date')}</section>`;
}

function toggle(input: SidebarInput, field: 'confidential' | 'discussion_locked', on: boolean, texts: { title: string; on: string; off: string; turnOn: string; turnOff: string }): Html {
  const self = `/${input.access.project.full_path}/-/issues/${input.issue.iid}`;
  const form = input.editable
    ? html`<form method="post" action="${self}/sidebar" hx-post="${self}/sidebar" hx-target="#issue-sidebar" hx-swap="outerHTML" data-field="${field}">${csrfField(input.context)}<input type="hidden" name="field" value="${field}"><input type="hidden" name="value" value="${on ? '0' : '1'}"><button type="submit" class="small secondary">${on ? texts.turnOff : texts.turnOn}</button></form>`
    : html``;
  return html`<section data-section="${field}"><h2>${texts.title}</h2><p>${on ? texts.on : texts.off}</p>${form}</section>`;
}

export function renderSidebar(input: SidebarInput, deps: Deps): Html {
  const { issue } = input;
  return html`<aside class="issue-sidebar" id="issue-sidebar" aria-label="Issue details">
${input.todo}
${assignees(input, deps.config.tier !== 'free')}
${labels(input)}
${milestone(input)}
${dueDate(input)}
${toggle(input, 'confidential', Boolean(Number(issue.confidential)), { title: 'Confidentiality', on: 'Confidential: only project members with at least the Reporter role, the author and assignees can see it.', off: 'Not confidential', turnOn: 'Make confidential', turnOff: 'Make visible to everyone' })}
${toggle(input, 'discussion_locked', Boolean(Number(issue.discussion_locked ?? 0)), { title: 'Lock discussion', on: 'Locked: only project members can comment.', off: 'Unlocked', turnOn: 'Lock discussion', turnOff: 'Unlock discussion' })}
</aside>`;
}
