// Explore › Projects › Topics (GitLab's /explore/projects/topics): every topic, those most public and
// internal projects list first, filtered by name and paged by 20; and a topic's page
// (/explore/projects/topics/:name): its avatar, title and description, then the projects listing it
// that the reader may see. Topics themselves are public, as the /topics API is.
import { html, raw, type Html } from '../platform/web/html.js';
import type { PageContext } from '../platform/web/page-route.js';
import { page, type PageOutcome } from '../platform/web/page.js';
import { NotFoundError } from '../platform/errors.js';
import { visibleProjectsQuery } from '../accounts/api.js';
import { topicAvatarUrl, topicsQuery } from '../topics/api.js';
import { renderGitlabMarkdown } from '../markdown/api.js';
import { EXPLORE_TABS, filterForm, listStateOf, pageLinks, PER_PAGE, sectionTabs, signInFirst, zoneOf } from './shared.js';
import { projectItem, TABS } from './projects-page.js';

const ROOT = '/explore/projects/topics';
const NO_SORTS = [['name']] as const;

export function topicHref(name: string): string {
  return `${ROOT}/${encodeURIComponent(name)}`;
}

function topicAvatar(topic: { id: number | string; title: string; avatar: string | null }, size: number): Html {
  const url = topicAvatarUrl('', Number(topic.id), topic.avatar);
  return url ? html`<img class="avatar" src="${url}" alt="" width="${size}" height="${size}">` : html`<span class="avatar" aria-hidden="true">${topic.title.slice(0, 1).toUpperCase()}</span>`;
}

export async function renderExploreTopics(context: PageContext): Promise<PageOutcome> {
  const gate = await signInFirst(context);
  if (gate) return gate;
  const { search, pageNumber, href } = listStateOf(context.query, NO_SORTS);
  const rows = await topicsQuery(context.deps.db, { search: search || undefined }).limit(PER_PAGE + 1).offset((pageNumber - 1) * PER_PAGE).execute();
  const topics = rows.slice(0, PER_PAGE);
  const count = (n: number) => `${n} ${n === 1 ? 'project' : 'projects'}`;
  const body = html`${sectionTabs('Explore', EXPLORE_TABS, '/explore/projects')}
${sectionTabs('Projects', TABS, ROOT)}
${filterForm(ROOT, 'topics', search, [], '')}
${topics.length
    ? html`<ul class="plain" id="topics">${topics.map((topic) => html`<li data-topic="${topic.name}"><h3>${topicAvatar(topic, 32)} <a href="${topicHref(topic.name)}">${topic.title}</a></h3><p class="muted">${count(Number(topic.total_projects_count))}</p></li>`)}</ul>`
    : html`<div class="empty"><p>${search ? html`No topic matches “${search}”.` : 'There are no topics yet: a project gets one from its settings.'}</p></div>`}
${pageLinks((n) => href(ROOT, n, false), pageNumber, rows.length > PER_PAGE)}`;
  return page({ title: 'Explore topics', body });
}

export async function renderTopic(context: PageContext): Promise<PageOutcome> {
  const gate = await signInFirst(context);
  if (gate) return gate;
  const { deps } = context;
  const name = context.params.topic_name ?? '';
  const topic = await topicsQuery(deps.db).where('topics.name_lower', '=', name.toLowerCase()).executeTakeFirst();
  if (!topic) throw new NotFoundError('Topic');
  const { pageNumber, href } = listStateOf(context.query, NO_SORTS);
  const projects = await visibleProjectsQuery(deps, context.user ?? null, { topicId: Number(topic.id), orderBy: 'star_count', sort: 'desc' })
    .limit(PER_PAGE + 1).offset((pageNumber - 1) * PER_PAGE).execute();
  const [description, zone] = await Promise.all([topic.description ? renderGitlabMarkdown(deps, topic.description) : Promise.resolve(''), zoneOf(deps, context)]);
  const body = html`<nav aria-label="Breadcrumbs" class="breadcrumbs"><a href="${ROOT}">Topics</a></nav>
<header class="topic-header">${topicAvatar(topic, 64)} <h1>${topic.title}</h1></header>
${description ? html`<div class="markdown">${raw(description)}</div>` : ''}
<h2>Projects with this topic</h2>
${projects.length
    ? html`<ul class="plain" id="projects">${projects.slice(0, PER_PAGE).map((project) => projectItem(project, zone))}</ul>`
    : html`<div class="empty"><p>No project you can see has this topic.</p></div>`}
${pageLinks((n) => href(topicHref(topic.name), n, false), pageNumber, projects.length > PER_PAGE)}`;
  return page({ title: `${topic.title} · Topics`, body });
}
