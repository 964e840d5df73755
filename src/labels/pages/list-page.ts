// A project's or group's labels (GitLab's Manage › Labels): prioritized labels first for a project,
// then the others by title, each with its colour, description and open issue count; a project also
// lists the labels it inherits from its groups. Those who manage labels get New, Edit and Delete;
// every signed-in reader a Subscribe or Unsubscribe button per label, and `?subscribed=true` (the
// link of the relabeled e-mail) lists only the labels they are subscribed to.
import { html, type Html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { page } from '../../platform/web/page.js';
import { labelChip } from '../label-chip.js';
import { availableLabelsQuery } from '../finder.js';
import { groupAndDescendantIds, labelIssueCounts } from '../labels-queries.js';
import type { LabelRow } from '../entities.js';
import type { LabelPageParent } from './shared.js';
import { subscribedLabelIds } from '../subscriptions.js';
import { subscriptionScopeOf } from './subscription-page.js';

export const PROJECT_LABELS_PATTERN = /^(?<path>(?!groups\/).+?)\/-\/labels$/;
export const GROUP_LABELS_PATTERN = /^groups\/(?<path>.+?)\/-\/labels$/;
const SHOWN = 500;

export async function renderLabels(context: PageContext, target: LabelPageParent) {
  const { deps } = context;
  const listed = await (await availableLabelsQuery(deps, target.parent)).limit(SHOWN).execute();
  const subscribed = await subscribedLabelIds(deps.db, context.user?.id, listed.map((row) => Number(row.id)), subscriptionScopeOf(target));
  const onlySubscribed = context.query.subscribed === 'true' && Boolean(context.user);
  const rows = onlySubscribed ? listed.filter((row) => subscribed.has(Number(row.id))) : listed;
  const where = 'project' in target.parent ? { projectId: Number(target.parent.project.id) } : { groupIds: await groupAndDescendantIds(deps.db, Number(target.parent.group.id)) };
  const counts = await labelIssueCounts(deps.db, rows.map((row) => Number(row.id)), where, context.user ?? null, deps.clock.now());
  const own = (label: LabelRow) => ('project' in target.parent ? label.project_id !== null : Number(label.group_id) === Number(target.parent.group.id));
  const prioritized = rows.filter((label) => own(label) && label.priority !== null).sort((a, b) => Number(a.priority) - Number(b.priority));
  const others = rows.filter((label) => own(label) && label.priority === null);
  const inherited = rows.filter((label) => !own(label));
  const root = `${target.base}/-/labels`;
  const issues = 'project' in target.parent ? `${target.base}/-/issues` : undefined;
  const subscription = (label: LabelRow): Html => {
    const on = subscribed.has(Number(label.id));
    return html`<td><form method="post" action="${root}/${label.id}/${on ? 'unsubscribe' : 'subscribe'}" class="inline">${csrfField(context)}<button type="submit" class="small secondary">${on ? 'Unsubscribe' : 'Subscribe'}<span class="visually-hidden"> ${on ? 'from' : 'to'} ${label.title}</span></button></form></td>`;
  };
  const signedIn = Boolean(context.user);
  const table = (labels: LabelRow[], editable: boolean): Html => html`<table class="labels"><thead><tr><th>Label</th><th>Description</th><th>Open issues</th>${signedIn ? html`<th><span class="visually-hidden">Subscription</span></th>` : ''}${editable ? html`<th><span class="visually-hidden">Actions</span></th>` : ''}</tr></thead><tbody>${labels.map((label) => {
    const count = counts.get(Number(label.id))?.opened ?? 0;
    return html`<tr data-label="${label.id}"><td>${labelChip(label)}${label.priority !== null && own(label) && target.kind === 'project' ? html` <span class="badge">Priority ${label.priority}</span>` : ''}</td><td class="wrap-anywhere">${label.description ?? ''}</td><td>${issues ? html`<a href="${issues}?label_name=${encodeURIComponent(label.title)}">${count}</a>` : count}</td>${signedIn ? subscription(label) : ''}${
      editable
        ? html`<td><span class="actions"><a class="button small secondary" href="${root}/${label.id}/edit">Edit<span class="visually-hidden"> ${label.title}</span></a><form method="post" action="${root}/${label.id}/delete" class="inline" data-confirm="Delete the label ${label.title}? It is removed from every issue.">${csrfField(context)}<button type="submit" class="small danger">Delete<span class="visually-hidden"> ${label.title}</span></button></form></span></td>`
        : ''
    }</tr>`;
  })}</tbody></table>`;
  const editable = target.manage;
  const ownCount = prioritized.length + others.length;
  const filterNote = onlySubscribed
    ? html`<p class="muted" id="subscribed-filter">${rows.length ? 'The labels you are subscribed to here.' : 'You are not subscribed to any label here.'} <a href="${root}">Show all labels</a></p>`
    : '';
  const body = html`
${editable ? html`<p class="actions"><a class="button" href="${root}/new">New label</a></p>` : ''}${filterNote}
${target.kind === 'project' && prioritized.length ? html`<h2>Prioritized labels</h2>${table(prioritized, editable)}` : ''}
${ownCount === 0
    ? onlySubscribed ? '' : html`<div class="empty"><p>No labels yet.</p><p class="muted">Labels sort ${target.kind === 'project' ? 'this project’s' : 'this group’s'} issues by kind, team or state${target.kind === 'group' ? ', in every project of the group' : ''}.${editable ? '' : ' Members with at least the Reporter role can create them.'}</p>${editable ? html`<p><a class="button" href="${root}/new">Create a label</a></p>` : ''}</div>`
    : others.length ? html`${target.kind === 'project' && prioritized.length ? html`<h2>Other labels</h2>` : ''}${table(others, editable)}` : ''}
${inherited.length ? html`<h2>Labels from groups</h2><p class="muted">Inherited from the groups above; they are changed on the group’s labels page.</p>${table(inherited, false)}` : ''}`;
  return page({ title: `Labels · ${target.name}`, heading: html`<h1>Labels</h1>`, body, sidebar: target.sidebar });
}
