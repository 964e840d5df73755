// The repository itself (doc/api/repositories.md; lib/api/repositories.rb): tree, blobs, compare,
// archives, merge base and contributors, all read with download_code.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { p } from '../../platform/http/params.js';
import { ApiError } from '../../platform/http/api-error.js';
import { ParamError } from '../../platform/errors.js';
import { repositoryRoute } from './route-kit.js';
import { pageArray } from './list-page.js';
import { afterToken, findTree, treesFirst } from './tree-finder.js';
import { treePage } from './tree-page.js';
import { findBlob } from './files-finder.js';
import { compareRefs } from './compare.js';
import { findContributors } from './contributors.js';
import { findMergeBase } from './merge-base.js';
import { commitEntity, compareEntity, contributorEntity, treeObjectEntity } from './entities.js';
import { archiveRoutes } from './archive-routes.js';

const TAGS = ['repositories'];

/** `refs[]=a&refs[]=b`, `refs=a,b` or a JSON array (Grape's CommaSeparatedToArray). */
function refsParam(input: Record<string, unknown>): string[] {
  const raw = input['refs[]'] ?? input.refs;
  if (raw === undefined || raw === null) throw new ParamError('refs is missing');
  const list = Array.isArray(raw) ? raw : [raw];
  if (list.some((item) => typeof item !== 'string')) throw new ParamError('refs is invalid');
  return (list as string[]).flatMap((item) => item.split(',')).filter((item) => item !== '');
}

export function repositoryRoutes(app: FastifyInstance, deps: Deps): void {
  repositoryRoute(app, deps, {
    method: 'GET', url: '/projects/:id/repository/tree', summary: 'The entries of a directory at a ref', tags: TAGS, paginated: true,
    ability: { project: 'download_code' }, auth: 'optional',
    params: {
      id: p.string.required(),
      ref: p.string.optional(),
      path: p.string.optional({ max: 4096 }),
      recursive: p.boolean.optional({ default: false }),
      pagination: p.string.optional({ values: ['legacy', 'keyset', 'none'], default: 'legacy' }),
      page_token: p.string.optional(),
    },
    handler: async (context) => {
      const { params } = context;
      if (params.pagination === 'none' && !params.recursive) throw new ParamError('pagination cannot be "none" unless "recursive" is true');
      const entries = await findTree(deps, await context.project(), { ref: params.ref, path: params.path, recursive: params.recursive! });
      if (params.pagination === 'none') return entries.map(treeObjectEntity);
      if (params.pagination === 'legacy') return pageArray(context, entries).map(treeObjectEntity);
      const rest = afterToken(treesFirst(entries), params.page_token);
      if (!rest) throw new ApiError(422, { message: '422 Unprocessable Entity' });
      return treePage(context, rest).map(treeObjectEntity);
    },
  });

  repositoryRoute(app, deps, {
    method: 'GET', url: '/projects/:id/repository/blobs/:sha', summary: 'A blob with its base64 content', tags: TAGS,
    ability: { project: 'download_code' }, auth: 'optional',
    params: { id: p.string.required(), sha: p.string.required() },
    handler: async ({ params, project }) => {
      const blob = await findBlob(deps, await project(), params.sha);
      return { size: blob.content.length, encoding: 'base64', content: blob.content.toString('base64'), sha: blob.id };
    },
  });

  repositoryRoute(app, deps, {
    method: 'GET', url: '/projects/:id/repository/blobs/:sha/raw', summary: 'A blob’s raw content', tags: TAGS,
    ability: { project: 'download_code' }, auth: 'optional',
    params: { id: p.string.required(), sha: p.string.required() },
    handler: async ({ params, project, reply }) => {
      const blob = await findBlob(deps, await project(), params.sha);
      reply.headers({ 'content-type': blob.content.subarray(0, 8000).includes(0) ? 'application/octet-stream' : 'text/plain; charset=utf-8', 'cache-control': 'no-cache' });
      return blob.content;
    },
  });

  repositoryRoute(app, deps, {
    method: 'GET', url: '/projects/:id/repository/compare', summary: 'Compare two branches, tags or commits', tags: TAGS,
    ability: { project: 'download_code' }, auth: 'optional',
    params: {
      id: p.string.required(),
      from: p.string.required(),
      to: p.string.required(),
      from_project_id: p.integer.optional(),
      straight: p.boolean.optional({ default: false }),
      unidiff: p.boolean.optional({ default: false }),
    },
    handler: async ({ params, project }) => {
      const access = await project();
      // Kiln has no forks: the only project to compare from is this one.
      if (params.from_project_id !== undefined && params.from_project_id !== Number(access.project.id)) {
        throw new ApiError(400, { message: `Target project id:${params.from_project_id} is not a fork of project id:${params.id}` });
      }
      const comparison = await compareRefs(deps, access, { from: params.from, to: params.to, straight: params.straight!, unidiff: params.unidiff! });
      return compareEntity({ baseUrl: deps.config.baseUrl, project: access.project }, comparison);
    },
  });

  repositoryRoute(app, deps, {
    method: 'GET', url: '/projects/:id/repository/merge_base', summary: 'The common ancestor of two or more refs', tags: TAGS,
    ability: { project: 'download_code' }, auth: 'optional',
    params: { id: p.string.required() },
    handler: async ({ input, project }) => {
      const refs = refsParam(input);
      const access = await project();
      return commitEntity({ baseUrl: deps.config.baseUrl, project: access.project }, await findMergeBase(deps, access, refs));
    },
  });

  repositoryRoute(app, deps, {
    method: 'GET', url: '/projects/:id/repository/contributors', summary: 'Contributors of a ref', tags: TAGS, paginated: true,
    ability: { project: 'download_code' }, auth: 'optional',
    params: {
      id: p.string.required(),
      ref: p.string.optional(),
      order_by: p.string.optional({ values: ['email', 'name', 'commits'], default: 'commits' }),
      sort: p.string.optional({ values: ['asc', 'desc'], default: 'asc' }),
    },
    handler: async (context) => {
      const { params } = context;
      const contributors = await findContributors(deps, await context.project(), { ref: params.ref, orderBy: params.order_by!, sort: params.sort! });
      return pageArray(context, contributors).map(contributorEntity);
    },
  });

  archiveRoutes(app, deps);
}
