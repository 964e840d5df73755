// Commits (doc/api/commits.md; lib/api/commits.rb): the log, one commit with its stats, its diff and
// the refs containing it, read with download_code; a commit of several file actions with push_code
// and the branch rules of a push.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { p, rejectTogether } from '../../platform/http/params.js';
import { ForbiddenError } from '../../platform/errors.js';
import { findProject } from '../../accounts/api.js';
import { repositoryRoute } from './route-kit.js';
import { pageArray, requestedPage, setOpenEndedHeaders } from './list-page.js';
import { diffOf, findProjectCommit, listCommits, refsOf, statsOf } from './commits-finder.js';
import { commitFiles } from './commit-files.js';
import { parseCommitActions, parseDateTime } from './commit-actions-params.js';
import { basicRefEntity, commitDetailEntity, commitEntity, commitWithStatsEntity, diffEntity } from './entities.js';
import { commitStats } from './git-reads.js';

const TAGS = ['commits'];

export function commitRoutes(app: FastifyInstance, deps: Deps): void {
  const contextOf = (access: ProjectAccess) => ({ baseUrl: deps.config.baseUrl, project: access.project });

  repositoryRoute(app, deps, {
    method: 'GET', url: '/projects/:id/repository/commits', summary: 'The commits of a ref, newest first', tags: TAGS, paginated: true,
    ability: { project: 'download_code' }, auth: 'optional',
    params: {
      id: p.string.required(),
      ref_name: p.string.optional(),
      since: p.string.optional(),
      until: p.string.optional(),
      path: p.string.optional({ max: 4096 }),
      author: p.string.optional(),
      all: p.boolean.optional(),
      with_stats: p.boolean.optional(),
      first_parent: p.boolean.optional(),
      order: p.string.optional({ values: ['default', 'topo'], default: 'default' }),
      trailers: p.boolean.optional(),
    },
    handler: async (context) => {
      const { params } = context;
      const filters = {
        refName: params.ref_name,
        path: params.path,
        since: parseDateTime('since', params.since),
        until: parseDateTime('until', params.until),
        author: params.author,
        all: params.all,
        firstParent: params.first_parent,
        order: params.order,
        withStats: params.with_stats,
      };
      const access = await context.project();
      const page = requestedPage(context);
      const listed = await listCommits(deps, access, filters, { offset: page.offset, limit: page.perPage });
      setOpenEndedHeaders(context, page, listed.length);
      const options = { trailers: params.trailers };
      return listed.map(({ commit, stats }) => (stats ? commitWithStatsEntity(contextOf(access), commit, stats, options) : commitEntity(contextOf(access), commit, options)));
    },
  });

  repositoryRoute(app, deps, {
    method: 'GET', url: '/projects/:id/repository/commits/:sha', summary: 'One commit by sha, branch or tag', tags: TAGS,
    ability: { project: 'download_code' }, auth: 'optional',
    params: { id: p.string.required(), sha: p.string.required(), stats: p.boolean.optional({ default: true }) },
    handler: async ({ params, project }) => {
      const access = await project();
      const found = await findProjectCommit(deps, access, params.sha);
      return commitDetailEntity(contextOf(access), found.commit, params.stats ? await statsOf(found) : null);
    },
  });

  repositoryRoute(app, deps, {
    method: 'GET', url: '/projects/:id/repository/commits/:sha/diff', summary: 'The diff a commit introduces', tags: TAGS, paginated: true,
    ability: { project: 'download_code' }, auth: 'optional',
    params: { id: p.string.required(), sha: p.string.required(), unidiff: p.boolean.optional({ default: false }) },
    handler: async (context) => {
      const found = await findProjectCommit(deps, await context.project(), context.params.sha);
      return pageArray(context, await diffOf(found, context.params.unidiff)).map(diffEntity);
    },
  });

  repositoryRoute(app, deps, {
    method: 'GET', url: '/projects/:id/repository/commits/:sha/refs', summary: 'The branches and tags a commit is in', tags: TAGS, paginated: true,
    ability: { project: 'download_code' }, auth: 'optional',
    params: { id: p.string.required(), sha: p.string.required(), type: p.string.optional({ values: ['branch', 'tag', 'all'], default: 'all' }) },
    handler: async (context) => {
      const found = await findProjectCommit(deps, await context.project(), context.params.sha);
      return pageArray(context, await refsOf(found, context.params.type!)).map(basicRefEntity);
    },
  });

  repositoryRoute(app, deps, {
    method: 'POST', url: '/projects/:id/repository/commits', summary: 'Commit several file actions at once', tags: TAGS,
    ability: { project: 'push_code' },
    params: {
      id: p.string.required(),
      branch: p.string.required({ allowBlank: false }),
      commit_message: p.string.required(),
      actions: p.json.required(),
      start_branch: p.string.optional(),
      start_sha: p.string.optional(),
      start_project: p.string.optional(),
      author_email: p.string.optional(),
      author_name: p.string.optional(),
      stats: p.boolean.optional({ default: true }),
      force: p.boolean.optional({ default: false }),
    },
    handler: async ({ params, project, input, actor }) => {
      rejectTogether(input, ['start_branch', 'start_sha']);
      const actions = parseCommitActions(params.actions);
      const access = await project();
      if (params.start_project !== undefined) {
        // Kiln has no forks: the only project a commit can start from is this one.
        const start = await findProject(deps, actor, params.start_project);
        if (Number(start.project.id) !== Number(access.project.id)) throw new ForbiddenError(`Project is not included in the fork network for ${start.namespace.name} / ${start.project.name}`);
      }
      const commit = await commitFiles(deps, access, {
        branch: params.branch,
        startBranch: params.start_branch,
        startSha: params.start_sha,
        force: params.force,
        message: params.commit_message,
        authorName: params.author_name,
        authorEmail: params.author_email,
        actions,
        changedMessage: (path) => `The file has changed since you started editing it: ${path}`,
      });
      const repo = await findProjectCommit(deps, access, commit.id);
      return commitDetailEntity(contextOf(access), commit, params.stats ? await commitStats(repo.repoPath, commit) : null);
    },
  });
}
