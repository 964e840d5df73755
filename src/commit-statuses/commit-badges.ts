// The latest pipeline of each commit of a page (the commit list, the commit page), in a few queries
// whatever the number of commits: GitLab's commit list shows `commit.latest_pipeline`'s status icon,
// linked to it. A pipeline of Kiln's CI links to its pipeline page; one of statuses posted by an
// external CI (source `external`, whose jobs the pipeline page does not list) to its newest status's
// target_url.
import type { Deps } from '../platform/deps.js';
import type { CommitStatusBadge } from '../repositories/api.js';
import { pipelinePath } from './entities.js';

export async function commitBadges(deps: Deps, projectId: number, shas: string[]): Promise<Map<string, CommitStatusBadge>> {
  const found = new Map<string, CommitStatusBadge>();
  if (shas.length === 0) return found;
  const pipelines = await deps.db
    .selectFrom('ci_pipelines')
    .select(['id', 'sha', 'status', 'source'])
    .where('project_id', '=', projectId)
    .where('sha', 'in', [...new Set(shas)])
    .orderBy('id', 'desc')
    .execute();
  for (const pipeline of pipelines) {
    if (!found.has(pipeline.sha)) found.set(pipeline.sha, { pipelineId: Number(pipeline.id), status: pipeline.status, targetUrl: null });
  }
  if (found.size === 0) return found;
  const own = pipelines.filter((pipeline) => pipeline.source !== 'external' && found.get(pipeline.sha)?.pipelineId === Number(pipeline.id));
  if (own.length) {
    const project = await deps.db.selectFrom('projects').select('full_path').where('id', '=', projectId).executeTakeFirst();
    for (const pipeline of own) if (project) found.get(pipeline.sha)!.targetUrl = pipelinePath(project.full_path, Number(pipeline.id));
  }
  const builds = await deps.db
    .selectFrom('ci_builds')
    .select(['commit_id', 'target_url'])
    .where('commit_id', 'in', [...found.values()].map((badge) => badge.pipelineId))
    .where('target_url', 'is not', null)
    .orderBy('id', 'desc')
    .execute();
  const byPipeline = new Map([...found.values()].map((badge) => [badge.pipelineId, badge]));
  for (const build of builds) {
    const badge = byPipeline.get(Number(build.commit_id));
    // Statuses are checked for http(s) when posted; checked again here because this becomes a link.
    if (badge && badge.targetUrl === null && /^https?:\/\//i.test(build.target_url ?? '')) badge.targetUrl = build.target_url;
  }
  return found;
}
