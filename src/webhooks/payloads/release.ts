// Release Hook payload (Gitlab::DataBuilder::Release), sent when a release is made, changed or deleted:
// built in the event's transaction, so a deletion's payload is read before the rows go.
import type { Deps } from '../../platform/deps.js';
import { findCommit, readableRepository } from '../../repositories/api.js';
import { hookTime, projectAttrs, projectForHook } from './common.js';

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
  const repoPath = release.sha ? await readableRepository(deps, { id: release.project_id } as never) : null;
  const commit = repoPath && release.sha ? await findCommit(repoPath, release.sha) : null;
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
    commit: commit && {
      id: commit.id,
      message: commit.message,
      title: commit.message.split('\n')[0],
      timestamp: new Date(commit.committer.seconds * 1000).toISOString().replace(/\.\d+Z$/, 'Z'),
      url: `${attrs.web_url}/-/commit/${commit.id}`,
      author: { name: commit.author.name, email: commit.author.email },
    },
  };
}
