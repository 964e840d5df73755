// Templates (doc/api/templates/*.md, project_templates.md; lib/api/templates.rb, project_templates.rb):
// `/templates/licenses`, `/templates/gitignores`, `/templates/dockerfiles` and
// `/templates/gitlab_ci_ymls` for anyone, `/projects/:id/templates/:type` for the project's readers. A
// license asked for by key has `[year]`, `[fullname]` (the `fullname` parameter, else the caller's name)
// and `[project]` (the `project` parameter) filled in; the other kinds are files answered as they are.
// A project's own description templates (`issues`, `merge_requests`: Markdown files of its repository,
// description-templates.ts) are for those who may read its code.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute, type RouteContext } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { NotFoundError } from '../platform/errors.js';
import { pageArray } from '../repositories/api.js';
import { fillLicense, findLicense, listedLicenses } from './licenses.js';
import { licenseEntity, templateListEntity } from './entities.js';
import { FILE_TEMPLATES, FILE_TEMPLATE_TYPES, type FileTemplateType } from './file-templates.js';
import { DESCRIPTION_TEMPLATE_TYPES, findDescriptionTemplate, isDescriptionTemplateType, listDescriptionTemplates } from './description-templates.js';

const TAGS = ['templates'];
const PROJECT_TYPES = [...FILE_TEMPLATE_TYPES, 'licenses', ...DESCRIPTION_TEMPLATE_TYPES] as const;

function filled(deps: Deps, ctx: RouteContext<any>, key: string, project: string | undefined, fullname: string | undefined, missing = 'License') {
  const license = findLicense(key);
  if (!license) throw new NotFoundError(missing);
  const year = new Date(deps.clock.now()).getUTCFullYear();
  return licenseEntity(license, fillLicense(license.text, { year, fullname: fullname || ctx.principal?.user?.name || '', project: project || undefined }));
}

export function templateRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'GET', url: '/templates/licenses', summary: 'License templates (the OSI approved SPDX licenses)', tags: TAGS, paginated: true,
    ability: { instance: 'read_instance' }, auth: 'optional',
    params: { popular: p.boolean.optional({ description: 'Only the popular ones' }) },
    handler: async (ctx) => pageArray(ctx, listedLicenses(ctx.params.popular === true)).map((license) => licenseEntity(license, license.text)),
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/templates/licenses/:name', summary: 'One license template, its placeholders filled', tags: TAGS,
    ability: { instance: 'read_instance' }, auth: 'optional',
    params: { name: p.string.required(), project: p.string.optional(), fullname: p.string.optional() },
    handler: async (ctx) => filled(deps, ctx, ctx.params.name, ctx.params.project, ctx.params.fullname),
  });

  for (const type of FILE_TEMPLATE_TYPES) {
    const collection = FILE_TEMPLATES[type];
    apiRoute(app, deps, {
      method: 'GET', url: `/templates/${type}`, summary: `The ${collection.singular} templates (key and name)`, tags: TAGS, paginated: true,
      ability: { instance: 'read_instance' }, auth: 'optional',
      params: {},
      handler: async (ctx) => pageArray(ctx, await collection.list()),
    });
    apiRoute(app, deps, {
      method: 'GET', url: `/templates/${type}/:name`, summary: `One ${collection.singular} template (name and content)`, tags: TAGS,
      ability: { instance: 'read_instance' }, auth: 'optional',
      params: { name: p.string.required() },
      handler: async (ctx) => {
        const template = await collection.find(ctx.params.name);
        if (!template) throw new NotFoundError(collection.singular);
        return template;
      },
    });
  }

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/templates/:type', summary: 'The templates of one kind a project can use', tags: TAGS, paginated: true,
    ability: { project: 'read_project' }, auth: 'optional',
    params: { id: p.string.required(), type: p.string.required({ values: PROJECT_TYPES }) },
    handler: async (ctx) => {
      const type = ctx.params.type;
      if (isDescriptionTemplateType(type)) return pageArray(ctx, await listDescriptionTemplates(deps, await ctx.project('download_code'), type));
      await ctx.project();
      if (type === 'licenses') return pageArray(ctx, listedLicenses(false)).map(templateListEntity);
      return pageArray(ctx, await FILE_TEMPLATES[type as FileTemplateType].list());
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/templates/:type/:name', summary: "One template, filled for the project's use (licenses)", tags: TAGS,
    ability: { project: 'read_project' }, auth: 'optional',
    params: {
      id: p.string.required(), type: p.string.required({ values: PROJECT_TYPES }), name: p.string.required(),
      project: p.string.optional(), fullname: p.string.optional(), source_template_project_id: p.integer.optional(),
    },
    handler: async (ctx) => {
      const { type, name } = ctx.params;
      const template = isDescriptionTemplateType(type)
        ? await findDescriptionTemplate(deps, await ctx.project('download_code'), type, name)
        : await fileTemplate(ctx, type, name);
      if (!template) throw new NotFoundError('Template');
      return template;
    },
  });

  /** A license (filled) or a file template of the project's kinds, for a reader of the project. */
  async function fileTemplate(ctx: RouteContext<any>, type: string, name: string) {
    await ctx.project();
    const { project, fullname } = ctx.params as { project?: string; fullname?: string };
    if (type === 'licenses') return filled(deps, ctx, name, project, fullname, 'Template');
    return FILE_TEMPLATES[type as FileTemplateType].find(name);
  }
}
