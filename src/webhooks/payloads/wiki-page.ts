// Wiki Page Hook payload (Gitlab::DataBuilder::WikiPage): the user, the project, the wiki's URLs and
// the page as the change left it (read at the event's commit, or the one before for a deletion).
import type { Deps } from '../../platform/deps.js';
import type { DomainEvent } from '../../platform/domain-events.js';
import { wikiPageAt } from '../../wikis/api.js';
import { projectAttrs, projectForHook, userAttrs, usersForHook } from './common.js';

export async function wikiPageHookData(deps: Deps, event: DomainEvent<'wiki_page.changed'>) {
  const project = await projectForHook(deps, event.projectId);
  if (!project) return null;
  const page = await wikiPageAt(deps, event.projectId, event.readAt, event.path);
  if (!page) return null;
  const attrs = projectAttrs(deps, project);
  const users = await usersForHook(deps, [event.actorId]);
  const wikiWeb = `${attrs.web_url}/-/wikis`;
  const pageUrl = `${wikiWeb}/${page.slug.split('/').map(encodeURIComponent).join('/')}`;
  return {
    object_kind: 'wiki_page',
    user: userAttrs(deps, event.actorId === null ? undefined : users.get(event.actorId)),
    project: attrs,
    wiki: {
      web_url: `${wikiWeb}/home`,
      git_ssh_url: attrs.git_ssh_url.replace(/\.git$/, '.wiki.git'),
      git_http_url: attrs.git_http_url.replace(/\.git$/, '.wiki.git'),
      path_with_namespace: `${project.full_path}.wiki`,
      default_branch: 'main',
    },
    object_attributes: {
      slug: page.slug,
      title: page.title,
      format: page.format,
      content: page.content,
      message: event.message,
      version_id: event.commit,
      url: pageUrl,
      action: event.action,
      diff_url: `${pageUrl}/diff?version_id=${event.commit}`,
    },
  };
}
