// Tags (doc/api/tags.md; lib/api/tags.rb): read with download_code, created and deleted with
// admin_tag (Developers). `:tag_name` is URL-encoded when it holds a slash.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { p } from '../../platform/http/params.js';
import { repositoryRoute } from './route-kit.js';
import { pageArray } from './list-page.js';
import { findTag, findTags, presentTags, type Tag } from './tags-finder.js';
import { createTag } from './create-tag.js';
import { deleteTag } from './delete-tag.js';

const TAGS = ['tags'];

export function tagRoutes(app: FastifyInstance, deps: Deps): void {
  const presentTag = async (access: ProjectAccess, tag: Tag) => (await presentTags(deps, access, [tag]))[0];

  repositoryRoute(app, deps, {
    method: 'GET', url: '/projects/:id/repository/tags', summary: "List a project's tags", tags: TAGS, paginated: true,
    ability: { project: 'download_code' }, auth: 'optional',
    params: {
      id: p.string.required(),
      search: p.string.optional(),
      order_by: p.string.optional({ values: ['name', 'updated', 'version'], default: 'updated' }),
      sort: p.string.optional({ values: ['asc', 'desc'], default: 'desc' }),
      page_token: p.string.optional(),
    },
    handler: async (context) => {
      const access = await context.project();
      const { params } = context;
      const tags = await findTags(deps, access, { search: params.search, orderBy: params.order_by!, sort: params.sort! });
      return presentTags(deps, access, pageArray(context, tags));
    },
  });

  repositoryRoute(app, deps, {
    method: 'GET', url: '/projects/:id/repository/tags/:tag_name', summary: 'One tag', tags: TAGS,
    ability: { project: 'download_code' }, auth: 'optional',
    params: { id: p.string.required(), tag_name: p.string.required() },
    handler: async ({ params, project }) => {
      const access = await project();
      return presentTag(access, await findTag(deps, access, params.tag_name));
    },
  });

  repositoryRoute(app, deps, {
    method: 'POST', url: '/projects/:id/repository/tags', summary: 'Create a tag (annotated when a message is given)', tags: TAGS,
    ability: { project: 'admin_tag' },
    params: { id: p.string.required(), tag_name: p.string.required(), ref: p.string.required(), message: p.string.optional() },
    handler: async ({ params, project }) => {
      const access = await project();
      await createTag(deps, access, { name: params.tag_name, ref: params.ref, message: params.message });
      return presentTag(access, await findTag(deps, access, params.tag_name));
    },
  });

  repositoryRoute(app, deps, {
    method: 'DELETE', url: '/projects/:id/repository/tags/:tag_name', summary: 'Delete a tag', tags: TAGS,
    ability: { project: 'admin_tag' },
    params: { id: p.string.required(), tag_name: p.string.required() },
    handler: async ({ params, project }) => {
      await deleteTag(deps, await project(), params.tag_name);
      return undefined;
    },
  });
}
