// What a merge request changes (doc/api/merge_requests.md): its diff versions, the files and commits
// of the latest one (`…/diffs`, `…/changes` with GitLab's limits and `overflow`, `…/commits`,
// `…/raw_diffs`), the test merge (`…/merge_ref`), and who takes part (`…/participants`, `…/reviewers`).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { StatusError } from '../platform/errors.js';
import { isoTime } from '../platform/clock.js';
import { commitEntity, gitBytes, pageArray } from '../repositories/api.js';
import { userBasic } from '../accounts/api.js';
import { usersById, visibleParticipants } from '../issues/api.js';
import { findMergeRequest, fullProject, latestDiffOf } from './finder.js';
import { presentMergeRequest } from './present-one.js';
import { iidParam } from './mr-routes.js';
import { findVersion, limitedChanges, mergeRequestDiffEntity, versionCommits, versionEntity, versionFiles, versionRepository } from './version-reads.js';
import { readRepository } from './mr-repository.js';

const TAGS = ['merge_requests'];
const read = { project: 'read_merge_request' } as const;

export function mergeRequestDiffRoutes(app: FastifyInstance, deps: Deps): void {
  const load = async (project: () => Promise<{ project: { id: number } }>, iid: number) => {
    const access = await project();
    const target = (await fullProject(deps.db, Number(access.project.id)))!;
    const mr = await findMergeRequest(deps.db, Number(target.id), iid);
    return { target, mr };
  };

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/merge_requests/:merge_request_iid/versions', summary: 'The diff versions of a merge request, newest first', tags: TAGS, paginated: true,
    ability: read, auth: 'optional', params: iidParam,
    handler: async (ctx) => {
      const { mr } = await load(ctx.project, ctx.params.merge_request_iid);
      const rows = await ctx.paginate(deps.db.selectFrom('merge_request_diffs').selectAll().where('merge_request_id', '=', Number(mr.id)).orderBy('id', 'desc'));
      return rows.map(versionEntity);
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/merge_requests/:merge_request_iid/versions/:version_id', summary: 'One diff version with its commits and files', tags: TAGS,
    ability: read, auth: 'optional', params: { ...iidParam, version_id: p.integer.required(), unidiff: p.boolean.optional() },
    handler: async (ctx) => {
      const { target, mr } = await load(ctx.project, ctx.params.merge_request_iid);
      const diff = await findVersion(deps, mr, ctx.params.version_id);
      const repoPath = await versionRepository(deps, target);
      const [commits, files] = await Promise.all([versionCommits(repoPath, diff), versionFiles(repoPath, diff, ctx.params.unidiff)]);
      const context = { baseUrl: deps.config.baseUrl, project: target };
      return { ...versionEntity(diff), commits: commits.map((commit) => commitEntity(context, commit)), diffs: files.map(mergeRequestDiffEntity) };
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/merge_requests/:merge_request_iid/diffs', summary: 'The files the latest version changes, paginated', tags: TAGS, paginated: true,
    ability: read, auth: 'optional', params: { ...iidParam, unidiff: p.boolean.optional() },
    handler: async (ctx) => {
      const { target, mr } = await load(ctx.project, ctx.params.merge_request_iid);
      const diff = await latestDiffOf(deps.db, mr);
      const files = diff ? await versionFiles(await versionRepository(deps, target), diff, ctx.params.unidiff) : [];
      return pageArray(ctx, files).map(mergeRequestDiffEntity);
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/merge_requests/:merge_request_iid/changes', summary: 'The merge request with the files of its latest version', tags: TAGS,
    ability: read, auth: 'optional', params: { ...iidParam, access_raw_diffs: p.boolean.optional(), unidiff: p.boolean.optional() },
    handler: async (ctx) => {
      const { target, mr } = await load(ctx.project, ctx.params.merge_request_iid);
      const diff = await latestDiffOf(deps.db, mr);
      const files = diff ? await versionFiles(await versionRepository(deps, target), diff, ctx.params.unidiff) : [];
      const limited = limitedChanges(files, ctx.params.access_raw_diffs === true);
      const entity = await presentMergeRequest(deps, mr, { viewer: ctx.principal?.user ?? null, from: { projectId: Number(target.id), namespaceId: Number(target.namespace_id) } });
      return { ...entity, changes: limited.files.map(mergeRequestDiffEntity), overflow: limited.overflow };
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/merge_requests/:merge_request_iid/commits', summary: 'The commits of the latest version, newest first', tags: TAGS, paginated: true,
    ability: read, auth: 'optional', params: iidParam,
    handler: async (ctx) => {
      const { target, mr } = await load(ctx.project, ctx.params.merge_request_iid);
      const diff = await latestDiffOf(deps.db, mr);
      const commits = diff ? await versionCommits(await versionRepository(deps, target), diff) : [];
      const context = { baseUrl: deps.config.baseUrl, project: target };
      return pageArray(ctx, commits).map((commit) => commitEntity(context, commit));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/merge_requests/:merge_request_iid/raw_diffs', summary: 'The latest version as a plain-text patch', tags: TAGS,
    ability: read, auth: 'optional', params: iidParam,
    handler: async (ctx) => {
      const { target, mr } = await load(ctx.project, ctx.params.merge_request_iid);
      const diff = await latestDiffOf(deps.db, mr);
      const patch = diff?.base_commit_sha && diff.head_commit_sha
        ? await gitBytes(await versionRepository(deps, target), ['diff', '--no-ext-diff', '--no-color', '--full-index', '--find-renames', diff.base_commit_sha, diff.head_commit_sha, '--'])
        : Buffer.alloc(0);
      ctx.reply.type('text/plain; charset=utf-8');
      return patch;
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/merge_requests/:merge_request_iid/merge_ref', summary: 'The commit of the test merge (refs/merge-requests/:iid/merge)', tags: TAGS,
    ability: read, auth: 'optional', params: iidParam,
    handler: async (ctx) => {
      const { target, mr } = await load(ctx.project, ctx.params.merge_request_iid);
      if (target.merge_method === 'ff') throw new StatusError(400, `Fast-forward merge to refs/merge-requests/${mr.iid}/merge is currently not supported.`);
      if (mr.merge_check_reason === 'conflict') throw new StatusError(400, 'Conflicts detected during merge');
      const repoPath = await readRepository(deps, target);
      const commit = repoPath && mr.state === 'opened' && mr.merge_status === 'can_be_merged'
        ? (await gitBytes(repoPath, ['rev-parse', '--verify', '--quiet', `refs/merge-requests/${mr.iid}/merge`]).catch(() => Buffer.alloc(0))).toString().trim()
        : '';
      if (commit === '') throw new StatusError(400, `Merge request is not mergeable to refs/merge-requests/${mr.iid}/merge`);
      return { commit_id: commit };
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/merge_requests/:merge_request_iid/participants', summary: 'Who takes part: the author, assignees, reviewers, commenters and the users mentioned', tags: TAGS,
    ability: read, auth: 'optional', params: iidParam,
    handler: async (ctx) => {
      const access = await ctx.project();
      const { mr } = await load(async () => access, ctx.params.merge_request_iid);
      const id = Number(mr.id);
      const [assignees, reviewers] = await Promise.all([
        deps.db.selectFrom('merge_request_assignees').select('user_id').where('merge_request_id', '=', id).execute(),
        deps.db.selectFrom('merge_request_reviewers').select('user_id').where('merge_request_id', '=', id).execute(),
      ]);
      const leadIds = [...assignees, ...reviewers].map((row) => Number(row.user_id));
      return visibleParticipants(deps, access, { type: 'MergeRequest', id, authorId: Number(mr.author_id), leadIds, title: mr.title, description: mr.description });
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/merge_requests/:merge_request_iid/reviewers', summary: 'The reviewers with the state of their review', tags: TAGS,
    ability: read, auth: 'optional', params: iidParam,
    handler: async (ctx) => {
      const { mr } = await load(ctx.project, ctx.params.merge_request_iid);
      const rows = await deps.db.selectFrom('merge_request_reviewers').selectAll().where('merge_request_id', '=', Number(mr.id)).orderBy('created_at').orderBy('user_id').execute();
      const users = await usersById(deps.db, rows.map((row) => Number(row.user_id)));
      return rows.flatMap((row) => (users.has(Number(row.user_id)) ? [{ user: userBasic(deps.config.baseUrl, users.get(Number(row.user_id))!), state: row.state, created_at: isoTime(row.created_at) }] : []));
    },
  });
}
