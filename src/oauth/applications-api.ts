// Admin REST API for applications (gitlab-oauth-alerts.md §13.3; lib/api/applications.rb).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { requireAdmin } from '../accounts/lookup.js';
import { applicationEntity, createApplication, deleteApplication, findApplication, renewApplicationSecret } from './applications.js';

export function applicationsApiRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'POST', url: '/applications', summary: 'Create an OAuth application (administrators)', tags: ['applications'],
    params: { name: p.string.required(), redirect_uri: p.string.required(), scopes: p.string.required(), confidential: p.boolean.optional({ default: true }) },
    handler: async ({ params, actor }) => {
      requireAdmin(actor);
      const { application, secret } = await createApplication(deps, {
        name: params.name, redirectUri: params.redirect_uri, scopes: params.scopes, confidential: params.confidential ?? true, ownerId: null,
      });
      return applicationEntity(application, secret);
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/applications', summary: 'List OAuth applications (administrators)', tags: ['applications'], paginated: true,
    handler: async ({ actor, paginate }) => {
      requireAdmin(actor);
      const rows = await paginate(deps.db.selectFrom('oauth_applications').selectAll().orderBy('id'));
      return rows.map((row) => applicationEntity(row));
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/applications/:id', summary: 'Delete an OAuth application (administrators)', tags: ['applications'],
    params: { id: p.integer.required() },
    handler: async ({ params, actor }) => {
      requireAdmin(actor);
      await deleteApplication(deps, await findApplication(deps, params.id));
      return undefined;
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/applications/:id/renew-secret', summary: 'Renew the secret of an OAuth application (administrators)', tags: ['applications'], status: 200,
    params: { id: p.integer.required() },
    handler: async ({ params, actor }) => {
      requireAdmin(actor);
      const { application, secret } = await renewApplicationSecret(deps, await findApplication(deps, params.id));
      return applicationEntity(application, secret);
    },
  });
}
