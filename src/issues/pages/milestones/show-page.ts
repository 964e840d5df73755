// One milestone (GitLab's milestone page): its description rendered, dates, state and the issues
// assigned to it that the viewer may read (across the group's projects for a group milestone).
import { NotFoundError } from '../../../platform/errors.js';
import { html, raw } from '../../../platform/web/html.js';
import { csrfField, type PageContext } from '../../../platform/web/page-route.js';
import { page } from '../../../platform/web/page.js';
import { renderGitlabMarkdown } from '../../../markdown/api.js';
import { milestoneIssuesQuery } from '../../issues-queries.js';
import { milestonesQuery } from '../../../milestones/api.js';
import { projectPathsById } from '../../../milestones/api.js';
import { dates, milestoneState, type MilestonePageParent } from './shared.js';

export const PROJECT_MILESTONE_PATTERN = /^(?<path>(?!groups\/).+?)\/-\/milestones\/(?<iid>\d{1,9})$/;
export const GROUP_MILESTONE_PATTERN = /^groups\/(?<path>.+?)\/-\/milestones\/(?<iid>\d{1,9})$/;
const ISSUES_SHOWN = 200;

export async function renderMilestone(context: PageContext, target: MilestonePageParent) {
  const { deps } = context;
  const milestone = await (await milestonesQuery(deps, target.parent, { iids: [Number(context.match.iid)] })).executeTakeFirst();
  if (!milestone) throw new NotFoundError('Milestone');
  const [description, issues] = await Promise.all([
    milestone.description ? renderGitlabMarkdown(deps, milestone.description, { project: target.project }) : Promise.resolve(''),
    milestoneIssuesQuery(deps, context.user ?? null, Number(milestone.id)).limit(ISSUES_SHOWN).execute(),
  ]);
  const paths = await projectPathsById(deps.db, issues.map((issue) => Number(issue.project_id)));
  const closed = issues.filter((issue) => issue.state === 'closed').length;
  const percent = issues.length ? Math.floor((closed * 100) / issues.length) : 0;
  const self = `${target.base}/-/milestones/${milestone.iid}`;
  const manage = target.manage
    ? html`<div class="actions"><a class="button secondary" href="${self}/edit">Edit</a><form method="post" action="${self}/state" class="inline">${csrfField(context)}<input type="hidden" name="state_event" value="${milestone.state === 'active' ? 'close' : 'activate'}"><button type="submit" class="secondary">${milestone.state === 'active' ? 'Close milestone' : 'Reopen milestone'}</button></form><form method="post" action="${self}/delete" class="inline" data-confirm="Delete the milestone ${milestone.title}? Its issues keep existing, without a milestone.">${csrfField(context)}<button type="submit" class="danger">Delete</button></form></div>`
    : html``;
  const body = html`
<p>${milestoneState(milestone)} ${dates(milestone)}</p>
${manage}
<p class="milestone-progress"><label for="milestone-progress">${percent}% complete</label> <span class="muted">(${closed} of ${issues.length} issues closed)</span><br><progress id="milestone-progress" class="progress" max="100" value="${percent}">${percent}%</progress></p>
<div class="markdown description">${description ? raw(description) : html`<p class="muted">No description.</p>`}</div>
<h2>Issues <span class="badge">${issues.length}</span></h2>
${
  issues.length
    ? html`<table id="milestone-issues"><thead><tr><th>Issue</th><th>State</th></tr></thead><tbody>${issues.map((issue) => {
        const path = paths.get(Number(issue.project_id)) ?? '';
        return html`<tr data-issue="${Number(issue.id)}"><td><a href="/${path}/-/issues/${issue.iid}">${issue.title}</a> <span class="muted">${path}#${issue.iid}</span></td><td><span class="badge">${issue.state === 'opened' ? 'Open' : 'Closed'}</span></td></tr>`;
      })}</tbody></table>`
    : html`<p class="empty">No issues in this milestone.</p>`
}`;
  return page({ title: `${milestone.title} · Milestones · ${target.name}`, heading: html`<h1>${milestone.title}</h1>`, body, sidebar: target.sidebar });
}
