// A project's or group's milestones (GitLab's Plan › Milestones): Open, Closed and All tabs with counts.
import { html } from '../../../platform/web/html.js';
import type { PageContext } from '../../../platform/web/page-route.js';
import { page } from '../../../platform/web/page.js';
import { milestonesQuery } from '../../../milestones/api.js';
import { dates, milestoneState, type MilestonePageParent } from './shared.js';

export const PROJECT_MILESTONES_PATTERN = /^(?<path>(?!groups\/).+?)\/-\/milestones$/;
export const GROUP_MILESTONES_PATTERN = /^groups\/(?<path>.+?)\/-\/milestones$/;
const TABS = [['active', 'Open'], ['closed', 'Closed'], ['all', 'All']] as const;
const SHOWN = 200;

export async function renderMilestones(context: PageContext, target: MilestonePageParent) {
  const { deps } = context;
  const state = TABS.some(([name]) => name === context.query.state) ? (context.query.state as 'active' | 'closed' | 'all') : 'active';
  const [counts, rows] = await Promise.all([
    Promise.all(TABS.map(async ([tab]) => (await milestonesQuery(deps, target.parent, { state: tab })).clearSelect().clearOrderBy().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())),
    (await milestonesQuery(deps, target.parent, { state })).limit(SHOWN).execute(),
  ]);
  const root = `${target.base}/-/milestones`;
  const body = html`
${target.manage ? html`<p class="actions"><a class="button" href="${root}/new">New milestone</a></p>` : ''}
<nav class="tabs" aria-label="Milestones by state">${TABS.map(([tab, label], index) => html`<a href="${root}?state=${tab}" class="${tab === state ? 'active' : ''}" data-tab="${tab}"${tab === state ? html` aria-current="page"` : ''}>${label} <span class="badge">${Number(counts[index]?.n ?? 0)}</span></a>`)}</nav>
${
  rows.length
    ? html`<table id="milestones"><thead><tr><th>Title</th><th>Dates</th><th>State</th></tr></thead><tbody>${rows.map(
        (milestone) => html`<tr data-iid="${milestone.iid}"><td><a href="${root}/${milestone.iid}">${milestone.title}</a></td><td>${dates(milestone)}</td><td>${milestoneState(milestone)}</td></tr>`,
      )}</tbody></table>`
    : html`<div class="empty"><p>${state === 'closed' ? 'No closed milestones.' : 'No milestones yet. A milestone gathers the issues due for a release or a date, and shows how many are done.'}</p>${state !== 'closed' ? (target.manage ? html`<p><a class="button" href="${root}/new">Create a milestone</a></p>` : html`<p class="muted">Members with at least the Reporter role can create them.</p>`) : ''}</div>`
}`;
  return page({ title: `Milestones · ${target.name}`, heading: html`<h1>Milestones</h1>`, body, sidebar: target.sidebar });
}
