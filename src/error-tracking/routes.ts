// REST surface of error tracking settings (specification, Error tracking settings; GitLab's REST API documentation).
// Maintainers and above: reading is read_error_tracking_settings, changing admin_operations.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { settingsEntity } from './entities.js';
import { requireSettings } from './finder.js';
import { setErrorTrackingActive } from './set-active.js';
import { configureErrorTracking } from './configure-settings.js';

const TAGS = ['error_tracking'];

export function errorTrackingRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/error_tracking/settings', summary: 'Error tracking settings of a project (maintainers)', tags: TAGS,
    ability: { project: 'read_error_tracking_settings' },
    params: { id: p.string.required() },
    handler: async ({ project }) => {
      const access = await project();
      return settingsEntity(await requireSettings(deps.db, access.project.id));
    },
  });

  apiRoute(app, deps, {
    method: 'PATCH', url: '/projects/:id/error_tracking/settings', summary: 'Enable or disable the configured error tracking settings (maintainers)', tags: TAGS,
    // gitbeaker and go-gitlab send `?active=false` in the query with an empty body; the merged
    // parameters take it from there.
    ability: { project: 'admin_operations' },
    params: { id: p.string.required(), active: p.boolean.required({ allowBlank: false }), integrated: p.boolean.optional() },
    handler: async ({ params, actor, project }) => {
      const access = await project();
      return settingsEntity(await setErrorTrackingActive(deps, actor, { access, active: params.active, integrated: params.integrated }));
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: '/projects/:id/error_tracking/settings', summary: 'Configure error tracking: tracker API URL, token, project (maintainers)', tags: TAGS, status: 200,
    ability: { project: 'admin_operations' },
    params: {
      id: p.string.required(),
      active: p.boolean.required({ allowBlank: false }),
      integrated: p.boolean.optional(),
      api_url: p.string.optional(),
      token: p.string.optional(),
      project_name: p.string.optional(),
    },
    handler: async ({ params, actor, project }) => {
      const access = await project();
      const row = await configureErrorTracking(deps, actor, {
        access, active: params.active, integrated: params.integrated, apiUrl: params.api_url, token: params.token, projectName: params.project_name,
      });
      return settingsEntity(row);
    },
  });
}
