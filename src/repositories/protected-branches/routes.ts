// REST surface of protected branches (doc/api/protected_branches.md; lib/api/protected_branches.rb):
// whoever reads the project's code reads its rules; Maintainers protect, change and unprotect.
// `:name` is a branch name or a wildcard, URL-encoded when it holds a slash (`release%2F*`).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { apiRoute } from '../../platform/http/route.js';
import { ApiError } from '../../platform/http/api-error.js';
import { p } from '../../platform/http/params.js';
import { ParamError } from '../../platform/errors.js';
import { ALLOWED_PROTECTED_REF_LEVELS } from '../../platform/auth/policies/index.js';
import { findProtectedBranch, protectedBranchesQuery, withAccessLevels } from './finder.js';
import { protectedBranchEntity } from './entities.js';
import { createProtectedBranch } from './create-protected-branch.js';
import { updateProtectedBranch } from './update-protected-branch.js';
import { deleteProtectedBranch } from './delete-protected-branch.js';

const TAGS = ['protected_branches'];

/** Grape's `values:` check for the integer access levels, every failure reported together. */
function checkAccessLevels(levels: Record<string, number | undefined>): void {
  const problems = Object.entries(levels)
    .filter(([, value]) => value !== undefined && !ALLOWED_PROTECTED_REF_LEVELS.includes(value))
    .map(([name]) => `${name} does not have a valid value`);
  if (problems.length > 0) throw new ParamError(problems.join(', '));
}

export function protectedBranchesRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/protected_branches', summary: "List a project's protected branches", tags: TAGS, paginated: true,
    ability: { project: 'download_code' }, auth: 'optional',
    params: { id: p.string.required(), search: p.string.optional() },
    handler: async ({ params, project, paginate }) => {
      const access = await project();
      const rows = await paginate(protectedBranchesQuery(deps.db, access.project.id, params.search));
      return (await withAccessLevels(deps.db, rows)).map(protectedBranchEntity);
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/protected_branches/:name', summary: 'One protected branch or wildcard', tags: TAGS,
    ability: { project: 'download_code' }, auth: 'optional',
    params: { id: p.string.required(), name: p.string.required() },
    handler: async ({ params, project }) => {
      const access = await project();
      return protectedBranchEntity(await findProtectedBranch(deps.db, access.project.id, params.name));
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/protected_branches', summary: 'Protect a branch or wildcard', tags: TAGS,
    ability: { project: 'admin_protected_branch' },
    params: {
      id: p.string.required(),
      name: p.string.required(),
      push_access_level: p.integer.optional(),
      merge_access_level: p.integer.optional(),
      allow_force_push: p.boolean.optional(),
      code_owner_approval_required: p.boolean.optional(),
    },
    handler: async ({ params, project }) => {
      checkAccessLevels({ push_access_level: params.push_access_level, merge_access_level: params.merge_access_level });
      const access = await project();
      // The model's presence validation, answered as GitLab's render_api_error! does.
      if (params.name.trim() === '') throw new ApiError(422, { message: ["Name can't be blank"] });
      const rule = await createProtectedBranch(deps, {
        projectId: access.project.id,
        name: params.name,
        pushAccessLevel: params.push_access_level,
        mergeAccessLevel: params.merge_access_level,
        allowForcePush: params.allow_force_push,
        codeOwnerApprovalRequired: params.code_owner_approval_required,
      });
      return protectedBranchEntity(rule);
    },
  });

  apiRoute(app, deps, {
    method: 'PATCH', url: '/projects/:id/protected_branches/:name', summary: 'Change whether a protected branch allows force pushes', tags: TAGS,
    ability: { project: 'admin_protected_branch' },
    params: {
      id: p.string.required(),
      name: p.string.required(),
      allow_force_push: p.boolean.optional({ allowBlank: false }),
      code_owner_approval_required: p.boolean.optional(),
    },
    handler: async ({ params, project }) => {
      const access = await project();
      const rule = await updateProtectedBranch(deps, access.project.id, params.name, {
        allowForcePush: params.allow_force_push,
        codeOwnerApprovalRequired: params.code_owner_approval_required,
      });
      return protectedBranchEntity(rule);
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/projects/:id/protected_branches/:name', summary: 'Unprotect a branch or wildcard', tags: TAGS,
    ability: { project: 'admin_protected_branch' },
    params: { id: p.string.required(), name: p.string.required() },
    handler: async ({ params, project }) => {
      const access = await project();
      await deleteProtectedBranch(deps, access.project.id, params.name);
      return undefined;
    },
  });
}
