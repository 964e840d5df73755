// GitLab's "View exposed artifact" links (artifacts:expose_as, Ci::FindExposedArtifactsService): each
// job of a pipeline whose artifacts declare `expose_as` and whose archive is still there gets a link
// named by `expose_as`: to the file when its single path names one, else to the archive's browser
// (at the directory its single path names, or at the top). At most ten, as GitLab shows. The pipeline
// page shows them, and the merge widget for the merge request's head pipeline.
import { encodePathSegments } from '../../platform/web/url-paths.js';
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { html, type Html } from '../../platform/web/html.js';
import type { CiBuildRow } from '../../commit-statuses/api.js';
import { readOptions } from '../pipelines/build-options.js';
import { jobUrl } from './shared.js';
import { jobsQuery } from '../finder.js';
import { canOnProject } from '../../platform/auth/policies/policy.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { keptLatestBuilds } from '../jobs/kept-artifacts.js';

const MAX_EXPOSED = 10;

export interface ExposedArtifact {
  text: string;
  url: string;
  jobName: string;
  jobUrl: string;
}

function artifactUrl(base: string, paths: string[]): string {
  const only = paths.length === 1 ? paths[0].replace(/^\.\//, '') : null;
  if (only === null || /[*?[]/.test(only) || only.split('/').includes('..')) return `${base}/artifacts/browse`;
  const encoded = encodePathSegments(only.replace(/\/+$/, ''));
  return only.endsWith('/') ? `${base}/artifacts/browse/${encoded}` : `${base}/artifacts/raw/${encoded}`;
}

export async function exposedArtifacts(deps: Deps, access: ProjectAccess, jobs: CiBuildRow[]): Promise<ExposedArtifact[]> {
  const exposing = jobs.flatMap((job) => {
    const artifacts = readOptions(job.options)?.artifacts;
    return artifacts?.exposeAs ? [{ job, text: artifacts.exposeAs, paths: artifacts.paths ?? [] }] : [];
  });
  if (!exposing.length) return [];
  const now = deps.clock.now();
  const archives = await deps.db
    .selectFrom('ci_job_artifacts')
    .select(['build_id', 'expire_at'])
    .where('build_id', 'in', exposing.map(({ job }) => Number(job.id)))
    .where('file_type', '=', 'archive')
    .execute();
  const kept = await keptLatestBuilds(deps.db, archives.filter((row) => row.expire_at !== null && Number(row.expire_at) <= now).map((row) => Number(row.build_id)));
  const available = new Set(archives.filter((row) => row.expire_at === null || Number(row.expire_at) > now || kept.has(Number(row.build_id))).map((row) => Number(row.build_id)));
  return exposing
    .filter(({ job }) => available.has(Number(job.id)))
    .slice(0, MAX_EXPOSED)
    .map(({ job, text, paths }) => ({ text, url: artifactUrl(jobUrl(access, job.id), paths), jobName: job.name, jobUrl: jobUrl(access, job.id) }));
}

/** The collapsible list GitLab's widget shows: "View exposed artifact" or "View N exposed artifacts". */
export function exposedArtifactsBlock(exposed: ExposedArtifact[]): Html {
  if (!exposed.length) return html``;
  return html`<details class="exposed-artifacts" id="exposed-artifacts"><summary>${exposed.length === 1 ? 'View exposed artifact' : `View ${exposed.length} exposed artifacts`}</summary><ul class="plain">${exposed.map(
    (entry) => html`<li><a href="${entry.url}" class="exposed-artifact">${entry.text}</a> <span class="muted">in <a href="${entry.jobUrl}">${entry.jobName}</a></span></li>`,
  )}</ul></details>`;
}

/**
 * The merge widget's section (registered as a merge request hook): the exposed artifacts of the merge
 * request's head pipeline, for those who may read its pipelines. A head pipeline of another project
 * (a fork's) is left out: its links would need the viewer's access there.
 */
export async function mergeRequestExposedArtifacts(context: PageContext, input: { access: ProjectAccess; headPipeline: { id: number; projectId: number } | null }): Promise<Html> {
  const { access, headPipeline } = input;
  if (!headPipeline || headPipeline.projectId !== Number(access.project.id) || !canOnProject(access, 'read_build')) return html``;
  const jobs = await jobsQuery(context.deps, headPipeline.projectId, { pipelineId: headPipeline.id }).execute();
  return exposedArtifactsBlock(await exposedArtifacts(context.deps, access, jobs));
}
