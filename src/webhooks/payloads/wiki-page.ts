// Wiki Page Hook payload (Gitlab::DataBuilder::WikiPage): the user, the project, the wiki's URLs and
// the page as the change left it (read at the event's commit, or the one before for a deletion).
//
// A group's wiki: GitLab (EE) runs the group's and its ancestors' hooks for it with the
// `wiki_page_hooks` scope, but its DataBuilder answers an empty hash for a group wiki (a TODO naming
// gitlab-org/gitlab#216904), so a receiver learns nothing. Kiln sends the project payload's shape with
// `group` in place of `project` (the group_id/group_name/group_path of GitLab's group member events,
// and its full_path), so a receiver written for project wikis reads the same `wiki` and
// `object_attributes` (docs/wikis.md).
import { encodePathSegments } from '../../platform/web/url-paths.js';
import type { Deps } from '../../platform/deps.js';
import type { DomainEvent, GroupEvent, WikiPageChange } from '../../platform/domain-events.js';
import { wikiPageAt } from '../../wikis/api.js';
import type { WikiOwner } from '../../repositories/api.js';
import { projectAttrs, projectForHook, userAttrs, usersForHook } from './common.js';

/** The page and its wiki as a Wiki Page Hook tells them, or null when the page cannot be read at its commit. */
async function wikiParts(deps: Deps, owner: WikiOwner, event: WikiPageChange & { actorId: number | null }, wikiWeb: string, repo: { ssh: string; http: string; path: string }) {
  const page = await wikiPageAt(deps, owner, event.readAt, event.path);
  if (!page) return null;
  const users = await usersForHook(deps, [event.actorId]);
  const pageUrl = `${wikiWeb}/${encodePathSegments(page.slug)}`;
  return {
    user: userAttrs(deps, event.actorId === null ? undefined : users.get(event.actorId)),
    wiki: { web_url: `${wikiWeb}/home`, git_ssh_url: repo.ssh, git_http_url: repo.http, path_with_namespace: repo.path, default_branch: 'main' },
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

export async function wikiPageHookData(deps: Deps, event: DomainEvent<'wiki_page.changed'>) {
  const project = await projectForHook(deps, event.projectId);
  if (!project) return null;
  const attrs = projectAttrs(deps, project);
  const repo = { ssh: attrs.git_ssh_url.replace(/\.git$/, '.wiki.git'), http: attrs.git_http_url.replace(/\.git$/, '.wiki.git'), path: `${project.full_path}.wiki` };
  const parts = await wikiParts(deps, { type: 'project_wiki', id: event.projectId }, event, `${attrs.web_url}/-/wikis`, repo);
  return parts && { object_kind: 'wiki_page', user: parts.user, project: attrs, wiki: parts.wiki, object_attributes: parts.object_attributes };
}

export async function groupWikiPageHookData(deps: Deps, event: GroupEvent<'group_wiki_page.changed'>) {
  const group = await deps.db.selectFrom('namespaces').select(['id', 'name', 'path', 'full_path']).where('id', '=', event.groupId).where('kind', '=', 'group').executeTakeFirst();
  if (!group) return null;
  const repo = { ssh: `${deps.config.sshUrlPrefix}${group.full_path}.wiki.git`, http: `${deps.config.baseUrl}/${group.full_path}.wiki.git`, path: `${group.full_path}.wiki` };
  const parts = await wikiParts(deps, { type: 'group', id: event.groupId }, event, `${deps.config.baseUrl}/groups/${group.full_path}/-/wikis`, repo);
  const groupAttrs = { group_id: Number(group.id), group_name: group.name, group_path: group.path, full_path: group.full_path };
  return parts && { object_kind: 'wiki_page', user: parts.user, group: groupAttrs, wiki: parts.wiki, object_attributes: parts.object_attributes };
}
