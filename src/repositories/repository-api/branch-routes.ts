// Branches (doc/api/branches.md; lib/api/branches.rb): read with download_code, created and deleted
// with push_code and then the branch rules of a push. `:branch` is URL-encoded when it holds a slash.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { p } from '../../platform/http/params.js';
import { repositoryRoute } from './route-kit.js';
import { pageArray } from './list-page.js';
import { findBranch, findBranches, presentBranches } from './branches-finder.js';
import { createBranch } from './create-branch.js';
import { deleteBranch } from './delete-branch.js';
import { deleteMergedBranches } from './delete-merged-branches.js';

const TAGS = ['branches'];

export function branchRoutes(app: FastifyInstance, deps: Deps): void {
  repositoryRoute(app, deps, {
    method: 'GET', url: '/projects/:id/repository/branches', summary: "List a project's branches", tags: TAGS, paginated: true,
    ability: { project: 'download_code' }, auth: 'optional',
    params: { id: p.string.required(), search: p.string.optional(), sort: p.string.optional(), page_token: p.string.optional() },
    handler: async (context) => {
      const access = await context.project();
      const list = await findBranches(deps, access, { search: context.params.search, sort: context.params.sort });
      return presentBranches(deps, access, list, pageArray(context, list.branches));
    },
  });

  repositoryRoute(app, deps, {
    method: 'GET', url: '/projects/:id/repository/branches/:branch', summary: 'One branch', tags: TAGS,
    ability: { project: 'download_code' }, auth: 'optional',
    params: { id: p.string.required(), branch: p.string.required() },
    handler: async ({ params, project }) => {
      const access = await project();
      const list = await findBranch(deps, access, params.branch);
      return (await presentBranches(deps, access, list, list.branches))[0];
    },
  });

  repositoryRoute(app, deps, {
    method: 'POST', url: '/projects/:id/repository/branches', summary: 'Create a branch from a ref', tags: TAGS,
    ability: { project: 'push_code' },
    params: { id: p.string.required(), branch: p.string.required({ allowBlank: false }), ref: p.string.required({ allowBlank: false }) },
    handler: async ({ params, project }) => {
      const access = await project();
      const created = await createBranch(deps, access, { name: params.branch, ref: params.ref });
      const list = await findBranch(deps, access, created.name);
      return (await presentBranches(deps, access, list, list.branches))[0];
    },
  });

  repositoryRoute(app, deps, {
    method: 'DELETE', url: '/projects/:id/repository/branches/:branch', summary: 'Delete a branch', tags: TAGS,
    ability: { project: 'push_code' },
    params: { id: p.string.required(), branch: p.string.required({ allowBlank: false }) },
    handler: async ({ params, project }) => {
      await deleteBranch(deps, await project(), params.branch);
      return undefined;
    },
  });

  repositoryRoute(app, deps, {
    method: 'DELETE', url: '/projects/:id/repository/merged_branches', summary: 'Delete the branches merged into the default branch (202)', tags: TAGS,
    ability: { project: 'push_code' }, status: 202,
    params: { id: p.string.required() },
    handler: async ({ project }) => {
      await deleteMergedBranches(deps, await project());
      return { message: '202 Accepted' };
    },
  });
}
