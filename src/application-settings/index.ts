// Application settings (GET/PUT /application/settings and the admin area's settings pages) and the instance metadata (GET /metadata).
import type { Feature } from '../platform/feature.js';
import { applicationSettingsRoutes } from './routes.js';
import { applicationSettingsPages } from './settings-page.js';
import { throttleRequest } from './throttles.js';

export const applicationSettingsFeature: Feature = {
  name: 'application-settings',
  setup(deps) {
    deps.auth.throttle = (request, user, kind) => throttleRequest(deps, request, user, kind);
  },
  routes(app, deps) {
    applicationSettingsRoutes(app, deps);
    applicationSettingsPages(app, deps);
  },
};
