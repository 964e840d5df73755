// The alert pages under the project's full path (namespaced, any group depth).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { namespacedPage } from '../platform/web/page-route.js';
import { SETTINGS_PATTERN, renderSettings } from './settings-page.js';
import { handleSettingsPost } from './settings-actions.js';
import { LIST_PATTERN, renderAlertList } from './list-page.js';
import { DETAILS_PATTERN, handleAlertDetailsPost, renderAlertDetails } from './details-page.js';

export function alertPages(app: FastifyInstance, deps: Deps): void {
  // Developers see the settings page for its test tab; each form's action asks its own ability
  // (integrations and incident settings: `admin_operations`, Maintainers).
  const settings = { project: 'send_test_alert' } as const;
  namespacedPage(app, deps, { method: 'GET', pattern: SETTINGS_PATTERN, ability: settings, handler: async (context) => renderSettings(context, await context.project()) });
  namespacedPage(app, deps, { method: 'POST', pattern: SETTINGS_PATTERN, ability: settings, handler: async (context) => handleSettingsPost(context, await context.project()) });
  namespacedPage(app, deps, { method: 'GET', pattern: LIST_PATTERN, ability: { project: 'read_alert_management_alert' }, handler: async (context) => renderAlertList(context, await context.project()) });
  namespacedPage(app, deps, { method: 'GET', pattern: DETAILS_PATTERN, ability: { project: 'read_alert_management_alert' }, handler: async (context) => renderAlertDetails(context, await context.project()) });
  namespacedPage(app, deps, { method: 'POST', pattern: DETAILS_PATTERN, ability: { project: 'update_alert_management_alert' }, handler: async (context) => handleAlertDetailsPost(context, await context.project()) });
}
