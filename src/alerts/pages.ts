// The alert pages under the project's full path (namespaced, any group depth).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { ACCESS } from '../platform/auth/access-levels.js';
import { namespacedPage } from '../web/page-route.js';
import { pageProject } from './page-access.js';
import { SETTINGS_PATTERN, renderSettings } from './settings-page.js';
import { handleSettingsPost } from './settings-actions.js';
import { LIST_PATTERN, renderAlertList } from './list-page.js';
import { DETAILS_PATTERN, handleAlertDetailsPost, renderAlertDetails } from './details-page.js';

export function alertPages(app: FastifyInstance, deps: Deps): void {
  // Developers see the page for its test tab; each form's action checks its own level.
  namespacedPage(app, deps, { method: 'GET', pattern: SETTINGS_PATTERN, handler: async (context) => renderSettings(context, await pageProject(deps, context.user, context.match.path, ACCESS.developer)) });
  namespacedPage(app, deps, { method: 'POST', pattern: SETTINGS_PATTERN, handler: async (context) => handleSettingsPost(context, await pageProject(deps, context.user, context.match.path, ACCESS.developer)) });
  namespacedPage(app, deps, { method: 'GET', pattern: LIST_PATTERN, handler: async (context) => renderAlertList(context, await pageProject(deps, context.user, context.match.path, ACCESS.developer)) });
  namespacedPage(app, deps, { method: 'GET', pattern: DETAILS_PATTERN, handler: async (context) => renderAlertDetails(context, await pageProject(deps, context.user, context.match.path, ACCESS.developer)) });
  namespacedPage(app, deps, { method: 'POST', pattern: DETAILS_PATTERN, handler: async (context) => handleAlertDetailsPost(context, await pageProject(deps, context.user, context.match.path, ACCESS.developer)) });
}
