// REST surface of protected tags (doc/api/protected_tags.md; lib/api/protected_tags.rb): every
// endpoint, reading included, is for those who administer the project (GitLab's authorize_admin_project).
// `:name` is a tag name or a wildcard, URL-encoded when it holds a slash.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { apiRoute } from '../../platform/http/route.js';
import { p } from '../../platform/http/params.js';
import { ParamError } from '../../platform/errors.js';
import { ALLOWED_PROTECTED_REF_LEVELS } from '../../platform/auth/policies/index.js';
import { findProtectedTag, protectedTagsQuery, withCreateLevels } from './tag-finder.js';
import { protectedTagEntity } from './tag-entities.js';
import { protectTag, unprotectTag } from './protect-tag.js';

const TAGS = ['protected_tags'];

export function protectedTagsRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/protected_tags', summary: "List a project's protected tags", tags: TAGS, paginated: true,
    ability: { project: 'admin_project' },
    params: { id: p.string.required() },
    handler: async ({ project, paginate }) => {
      const access = await project();
      const rows = await paginate(protectedTagsQuery(deps.db, access.project.id));
      return (await withCreateLevels(deps.db, rows)).map(protectedTagEntity);
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/protected_tags/:name', summary: 'One protected tag or wildcard', tags: TAGS,
    ability: { project: 'admin_project' },
    params: { id: p.string.required(), name: p.string.required() },
    handler: async ({ params, project }) => {
      const access = await project();
      return protectedTagEntity(await findProtectedTag(deps.db, access.project.id, params.name));
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/protected_tags', summary: 'Protect a tag or wildcard', tags: TAGS,
    ability: { project: 'admin_project' },
    params: { id: p.string.required(), name: p.string.required(), create_access_level: p.integer.optional() },
    handler: async ({ params, project }) => {
      // Grape's `values:` check, before the project is looked at.
      if (params.create_access_level !== undefined && !ALLOWED_PROTECTED_REF_LEVELS.includes(params.create_access_level)) {
        throw new ParamError('create_access_level does not have a valid value');
      }
      const access = await project();
      return protectedTagEntity(await protectTag(deps, { projectId: access.project.id, name: params.name, createAccessLevel: params.create_access_level }));
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/projects/:id/protected_tags/:name', summary: 'Unprotect a tag or wildcard', tags: TAGS,
    ability: { project: 'admin_project' },
    params: { id: p.string.required(), name: p.string.required() },
    handler: async ({ params, project }) => {
      const access = await project();
      await unprotectTag(deps, access.project.id, params.name);
      return undefined;
    },
  });
}
