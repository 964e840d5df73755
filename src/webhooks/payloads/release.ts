// Release Hook payload (Gitlab::DataBuilder::Release), sent when a release is made, changed or deleted:
// built in the event's transaction, so a deletion's payload is read before the rows go.
import type { Deps } from '../../platform/deps.js';
import { commitAttrs, commitForHook, hookTime, projectAttrs, projectForHook } from './common.js';

const SOURCE_FORMATS = ['zip', 'tar.gz', 'tar.bz2', 'tar'];

export async function releaseHookData(deps: Deps, input: { releaseId: number; action: 'create' | 'update' | 'delete' }) {
  const release = await deps.db.selectFrom('releases').selectAll().where('id', '=', input.releaseId).executeTakeFirst();
  if (!release) return null;
  const project = await projectForHook(deps, Number(release.project_id));
  if (!project) return null;
  const attrs = projectAttrs(deps, project);
  const links = await deps.db.selectFrom('release_links').selectAll().where('release_id', '=', release.id).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  const tag = encodeURIComponent(release.tag_name);
  const sources = SOURCE_FORMATS.map((format) => ({ format, url: `${attrs.web_url}/-/archive/${tag}/${project.path}-${release.tag_name.replace(/\//g, '-')}.${format}` }));
  const commit = await commitForHook(deps, Number(release.project_id), release.sha);
  return {
    id: Number(release.id),
    created_at: hookTime(release.created_at),
    description: release.description,
    name: release.name,
    released_at: hookTime(release.released_at),
    tag: release.tag_name,
    object_kind: 'release',
    project: attrs,
    url: `${attrs.web_url}/-/releases/${tag}`,
    action: input.action,
    assets: {
      count: links.length + sources.length,
      links: links.map((link) => ({ id: Number(link.id), external: true, link_type: link.link_type, name: link.name, url: link.url })),
      sources,
    },
    commit: commit && commitAttrs(attrs.web_url, commit),
  };
}
