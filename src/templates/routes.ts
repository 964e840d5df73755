// License templates (doc/api/templates/licenses.md, project_templates.md; lib/api/templates.rb,
// project_templates.rb): `/templates/licenses` for anyone, `/projects/:id/templates/licenses` for the
// project's readers. A license asked for by key has `[year]`, `[fullname]` (the `fullname`
// parameter, else the caller's name) and `[project]` (the `project` parameter) filled in. Gitignore,
// Dockerfile and .gitlab-ci.yml templates need a maintained collection Kiln does not have: those
// types are 404, as an unknown template.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute, type RouteContext } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { NotFoundError } from '../platform/errors.js';
import { pageArray } from '../repositories/api.js';
import { fillLicense, findLicense, listedLicenses } from './licenses.js';
import { licenseEntity, templateListEntity } from './entities.js';

const TAGS = ['templates'];

function filled(deps: Deps, ctx: RouteContext<any>, key: string, project: string | undefined, fullname: string | undefined) {
  const license = findLicense(key);
  if (!license) throw new NotFoundError('License');
  const year = new Date(deps.clock.now()).getUTCFullYear();
  return licenseEntity(license, fillLicense(license.text, { year, fullname: fullname ?? ctx.principal?.user?.name ?? '', project }));
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

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/templates/licenses', summary: 'License templates for a project', tags: TAGS, paginated: true,
    ability: { project: 'read_project' }, auth: 'optional',
    params: { id: p.string.required() },
    handler: async (ctx) => {
      await ctx.project();
      return pageArray(ctx, listedLicenses(false)).map(templateListEntity);
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/templates/licenses/:name', summary: "One license template, filled for the project's use", tags: TAGS,
    ability: { project: 'read_project' }, auth: 'optional',
    params: { id: p.string.required(), name: p.string.required(), project: p.string.optional(), fullname: p.string.optional(), source_template_project_id: p.integer.optional() },
    handler: async (ctx) => {
      await ctx.project();
      return filled(deps, ctx, ctx.params.name, ctx.params.project, ctx.params.fullname);
    },
  });
}
