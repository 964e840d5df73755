// "Linked items" on an issue's page (GitLab's related issues block): the linked issues the viewer
// may read, grouped as GitLab groups them (blocks, is blocked by, relates to). Read-only: links are
// made and removed through the API.
import type { PageContext } from '../../platform/web/page-route.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import type { Principal } from '../../platform/auth/principal.js';
import { html, type Html } from '../../platform/web/html.js';
import type { IssueRow } from '../entities.js';
import { relatedIssues, type RelatedIssue } from '../links/issue-links-finder.js';
import { issueReference } from '../links/issue-reference.js';

const GROUPS: Array<[RelatedIssue['linkType'], string]> = [
  ['blocks', 'Blocks'],
  ['is_blocked_by', 'Is blocked by'],
  ['relates_to', 'Relates to'],
];

export async function renderLinkedItems(context: PageContext, access: ProjectAccess, issue: IssueRow): Promise<Html> {
  const principal: Principal | null = context.user ? { user: context.user, scopes: ['api'], via: 'session', tokenId: null } : null;
  const related = await relatedIssues(context.deps, principal, issue, access);
  if (related.length === 0) return html``;
  const groups = GROUPS.map(([type, label]) => [label, related.filter((item) => item.linkType === type)] as const).filter(([, items]) => items.length > 0);
  return html`<section class="linked-items" aria-labelledby="linked-items-heading"><h2 id="linked-items-heading">Linked items <span class="badge">${related.length}</span></h2>
${groups.map(([label, items]) => html`<h3>${label}</h3><ul>${items.map((item) => html`<li><a href="/${item.access.project.full_path}/-/issues/${item.issue.iid}">${item.issue.title}</a> <span class="muted">${issueReference(item.issue, item.access.project, access.project)}</span>${item.issue.state === 'closed' ? html` <span class="badge">Closed</span>` : ''}</li>`)}</ul>`)}</section>`;
}
