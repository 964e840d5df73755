// The badges row of a project's overview page (GitLab shows them under the description): each badge's
// rendered image inside a link to its rendered link URL, named by the badge's name.
import type { Deps } from '../platform/deps.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import { html, type Html } from '../platform/web/html.js';
import { badgesQuery } from './finder.js';
import { PlaceholderValues } from './placeholders.js';

export async function projectBadgesHtml(deps: Deps, project: ProjectRow): Promise<Html | null> {
  const rows = await (await badgesQuery(deps, { project })).limit(100).execute();
  if (rows.length === 0) return null;
  const values = new PlaceholderValues(deps, project);
  const items = [];
  for (const badge of rows) {
    const [link, image] = [await values.render(badge.link_url), await values.render(badge.image_url)];
    items.push(html`<li><a href="${link}" rel="noopener noreferrer nofollow"><img src="${image}" alt="${badge.name || 'Project badge'}" height="20"></a></li>`);
  }
  return html`<ul class="project-badges" aria-label="Badges">${items}</ul>`;
}
