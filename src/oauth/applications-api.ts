// Admin REST API for applications (GitLab's OAuth documentation; lib/api/applications.rb).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { applicationEntity, createApplication, deleteApplication, findApplication, renewApplicationSecret } from './applications.js';

export function applicationsApiRoutes(app: FastifyInstance, deps: Deps): void {
  // Administrators only, as GitLab's `authenticated_as_admin!`: 401 anonymous, 403 for other users.
  const ADMIN = { instance: 'admin_all_resources' } as const;
  apiRoute(app, deps, {
    method: 'POST', url: '/applications', summary: 'Create an OAuth application (administrators)', tags: ['applications'], ability: ADMIN,
    // `trusted` (skip consent) is a Kiln extension: GitLab sets it only in its admin pages, Kiln has none.
    params: { name: p.string.required(), redirect_uri: p.string.required(), scopes: p.string.required(), confidential: p.boolean.optional({ default: true }), trusted: p.boolean.optional({ default: false }) },
    handler: async ({ params }) => {
      const { application, secret } = await createApplication(deps, {
        name: params.name, redirectUri: params.redirect_uri, scopes: params.scopes, confidential: params.confidential ?? true, trusted: params.trusted ?? false, ownerId: null,
      });
      return applicationEntity(application, secret);
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/applications', summary: 'List OAuth applications (administrators)', tags: ['applications'], ability: ADMIN, paginated: true,
    handler: async ({ paginate }) => {
      const rows = await paginate(deps.db.selectFrom('oauth_applications').selectAll().orderBy('id'));
      return rows.map((row) => applicationEntity(row));
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/applications/:id', summary: 'Delete an OAuth application (administrators)', tags: ['applications'], ability: ADMIN,
    params: { id: p.integer.required() },
    handler: async ({ params }) => {
      await deleteApplication(deps, await findApplication(deps, params.id));
      return undefined;
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/applications/:id/renew-secret', summary: 'Renew the secret of an OAuth application (administrators)', tags: ['applications'], ability: ADMIN, status: 200,
    params: { id: p.integer.required() },
    handler: async ({ params }) => {
      const { application, secret } = await renewApplicationSecret(deps, await findApplication(deps, params.id));
      return applicationEntity(application, secret);
    },
  });
}
