// GitLab's job artifacts API (lib/api/ci/job_artifacts.rb) beyond the archive itself: one file out
// of a job's archive, the archive or one file of the newest successful job of a name on a ref, keeping
// artifacts from expiry, and deleting them. Files are streamed out of the zip (artifact-entry.ts).
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { apiRoute } from '../../platform/http/route.js';
import { p } from '../../platform/http/params.js';
import { ApiError } from '../../platform/http/api-error.js';
import { NotFoundError } from '../../platform/errors.js';
import type { CiBuildRow } from '../../commit-statuses/api.js';
import { findBuild } from '../finder.js';
import { presentJobs } from '../entities.js';
import { sendArchive } from '../runner-protocol-routes.js';
import { assertMayUpdateRef } from './protected-ref-access.js';
import { archiveEntries, attachmentName, availableArchive, entryContentType, entryStream, normalisedPath, validArtifactPath } from './artifact-entry.js';

const TAGS = ['jobs'];
/** GitLab's answer to ActiveRecord::RecordNotFound (latest_successful_build_for_ref!). */
const notFound = () => new ApiError(404, { message: '404 Not found' });

/** One file entry of a job's unexpired archive: 'invalid' for a path climbing out, null when there is none. */
export async function findArtifactEntry(deps: Deps, buildId: number, rawPath: string) {
  if (!validArtifactPath(rawPath)) return 'invalid' as const;
  const archive = await availableArchive(deps, buildId);
  if (!archive) return null;
  const name = normalisedPath(rawPath);
  const entry = archiveEntries(archive.data).find((candidate) => candidate.name === name && !candidate.name.endsWith('/'));
  return entry ? { archive, entry } : null;
}

/** Send a found entry, streamed, as Workhorse sends it. */
export function sendEntry(reply: FastifyReply, found: { archive: { data: Uint8Array }; entry: { name: string } }): FastifyReply {
  return reply
    .code(200)
    .header('content-type', entryContentType(found.entry.name))
    .header('content-disposition', attachmentName(found.entry.name))
    .header('x-content-type-options', 'nosniff')
    .send(entryStream(found.archive.data, found.entry.name));
}

/** One entry of a job's archive: 400 for a path climbing out, 404 without the archive or the entry. */
async function sendArtifactEntry(deps: Deps, reply: FastifyReply, buildId: number, rawPath: string): Promise<FastifyReply> {
  const found = await findArtifactEntry(deps, buildId, rawPath);
  if (found === 'invalid') throw new ApiError(400, { message: '400 Bad request' });
  if (!found) throw new ApiError(404, { message: '404 Not Found' });
  return sendEntry(reply, found);
}

/** GitLab's latest_successful_build_for_ref!: the job of that name in the ref's newest successful pipeline. */
async function latestSuccessfulBuild(deps: Deps, projectId: number, ref: string, job: string): Promise<CiBuildRow> {
  const pipeline = await deps.db.selectFrom('ci_pipelines').select('id').where('project_id', '=', projectId).where('ref', '=', ref).where('status', '=', 'success').orderBy('id', 'desc').limit(1).executeTakeFirst();
  if (!pipeline) throw notFound();
  const build = await deps.db.selectFrom('ci_builds').selectAll().where('commit_id', '=', pipeline.id).where('name', '=', job).where('retried', '=', 0).where('type', '=', 'Ci::Build').orderBy('id', 'desc').limit(1).executeTakeFirst();
  if (!build) throw notFound();
  return build;
}

const wildcard = (request: { params: unknown }) => String((request.params as Record<string, string>)['*'] ?? '');

export function artifactRoutes(app: FastifyInstance, deps: Deps): void {
  const read = { project: 'read_build' } as const;
  const jobOf = async (projectId: number, jobId: number) => {
    const build = await findBuild(deps.db, projectId, jobId);
    if (!build) throw new NotFoundError('Job');
    return build;
  };

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/jobs/:job_id/artifacts/*', summary: "A file of a job's artifacts archive", tags: TAGS, jobToken: true, ability: read, auth: 'optional',
    params: { id: p.string.required(), job_id: p.integer.required() },
    handler: async ({ params, project, request, reply }) => {
      const access = await project();
      const build = await jobOf(Number(access.project.id), params.job_id);
      return sendArtifactEntry(deps, reply, Number(build.id), wildcard(request));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/jobs/artifacts/:ref_name/download', summary: "The artifacts archive of a ref's newest successful job of a name", tags: TAGS, jobToken: true, ability: read, auth: 'optional',
    params: { id: p.string.required(), ref_name: p.string.required(), job: p.string.required() },
    handler: async ({ params, project, reply }) => {
      const access = await project();
      const build = await latestSuccessfulBuild(deps, Number(access.project.id), params.ref_name, params.job);
      return sendArchive(deps, reply, Number(build.id));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/jobs/artifacts/:ref_name/raw/*', summary: "A file of the artifacts of a ref's newest successful job of a name", tags: TAGS, jobToken: true, ability: read, auth: 'optional',
    params: { id: p.string.required(), ref_name: p.string.required(), job: p.string.required() },
    handler: async ({ params, project, request, reply }) => {
      const access = await project();
      const build = await latestSuccessfulBuild(deps, Number(access.project.id), params.ref_name, params.job);
      return sendArtifactEntry(deps, reply, Number(build.id), wildcard(request));
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/jobs/:job_id/artifacts/keep', summary: "Keep a job's artifacts from expiring", tags: TAGS, status: 200, ability: { project: 'update_build' },
    params: { id: p.string.required(), job_id: p.integer.required() },
    handler: async ({ params, project, actor }) => {
      const access = await project();
      const build = await jobOf(Number(access.project.id), params.job_id);
      await assertMayUpdateRef(deps, access.project, actor.user, build);
      if (!(await keepArtifacts(deps, Number(build.id)))) throw new ApiError(404, { message: '404 Not found' });
      return (await presentJobs(deps, access.project, [build]))[0];
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/projects/:id/jobs/:job_id/artifacts', summary: "Delete a job's artifacts", tags: TAGS, status: 204, ability: { project: 'admin_build' },
    params: { id: p.string.required(), job_id: p.integer.required() },
    handler: async ({ params, project }) => {
      const access = await project();
      const build = await jobOf(Number(access.project.id), params.job_id);
      await deleteArtifacts(deps, Number(build.id));
      return undefined;
    },
  });
}

/** Keep (GitLab's keep_artifacts!): no expiry any more. False when the job has no archive left. */
export async function keepArtifacts(deps: Deps, buildId: number): Promise<boolean> {
  if (!(await availableArchive(deps, buildId))) return false;
  await deps.db.updateTable('ci_job_artifacts').set({ expire_at: null }).where('build_id', '=', buildId).execute();
  return true;
}

/** Ci::JobArtifacts::DeleteService: every artifact of the job (archive and metadata). */
export async function deleteArtifacts(deps: Deps, buildId: number): Promise<void> {
  await deps.db.deleteFrom('ci_job_artifacts').where('build_id', '=', buildId).execute();
}
