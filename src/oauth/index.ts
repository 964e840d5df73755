// The OAuth 2 provider: authorization, token, token info, revocation, introspection, OpenID Connect
// discovery, applications (API and pages).
import type { Feature } from '../platform/feature.js';
import { resolveOAuthToken } from './resolve-token.js';
import { tokenRoutes } from './token-route.js';
import { tokenInfoRoutes } from './token-info-routes.js';
import { revokeRoutes } from './revoke-routes.js';
import { discoveryRoutes } from './discovery-routes.js';
import { applicationsApiRoutes } from './applications-api.js';
import { authorizeRoutes } from './authorize/routes.js';
import { applicationsPages } from './applications-pages.js';

export const oauthFeature: Feature = {
  name: 'oauth',
  setup(deps) {
    deps.auth.oauth.push((token) => resolveOAuthToken(deps, token));
  },
  routes(app, deps) {
    tokenRoutes(app, deps);
    tokenInfoRoutes(app, deps);
    revokeRoutes(app, deps);
    discoveryRoutes(app, deps);
    applicationsApiRoutes(app, deps);
    authorizeRoutes(app, deps);
    applicationsPages(app, deps);
  },
};
