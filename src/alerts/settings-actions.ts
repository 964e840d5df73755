// The settings page's form posts: one action per form, each calling the same actions as the REST
// API; the test tab sends its payload through the real ingestion path (GitLab's alert management documentation).
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { authorizeProject } from '../platform/auth/policies/policy.js';
import type { PageContext } from '../platform/web/page-route.js';
import { redirect } from '../platform/web/page.js';
import { ValidationError, BadRequestError } from '../platform/errors.js';
import { findIntegration } from './finder.js';
import { createIntegration } from './create-integration.js';
import { updateIntegration } from './update-integration.js';
import { resetIntegrationToken } from './reset-integration-token.js';
import { deleteIntegration } from './delete-integration.js';
import { updateIncidentSettings } from './update-incident-settings.js';
import { mappingFromForm } from './mapping-form.js';
import { receiveAlert } from './receive-alert.js';
import { field } from './form-field.js';
import { hit } from '../platform/rate-limit.js';

function describe(error: unknown): string | null {
  if (error instanceof ValidationError) return Object.entries(error.fields).map(([name, messages]) => `${name} ${messages.join(', ')}`).join('; ');
  if (error instanceof BadRequestError) return error.reason ?? 'Bad request';
  return null;
}

export async function handleSettingsPost(context: PageContext, access: ProjectAccess) {
  const { deps, form } = context;
  const back = `/${access.project.full_path}/-/settings/operations`;
  const integrationId = Number(field(form, 'integration_id'));
  const checked = (name: string) => field(form, name) === '1';
  try {
    switch (field(form, 'action')) {
      case 'create':
        await createIntegration(deps, access, { name: field(form, 'name'), type: field(form, 'type') === 'prometheus' ? 'prometheus' : 'http', active: checked('active') });
        return redirect(back, 'Integration saved.');
      case 'update':
        await updateIntegration(deps, access, integrationId, { name: field(form, 'name'), active: checked('active') });
        return redirect(`${back}#integration-${integrationId}`, 'Integration saved.');
      case 'reset':
        await resetIntegrationToken(deps, access, integrationId);
        return redirect(`${back}#integration-${integrationId}`, 'The authorization key was reset. Update it in your monitoring tool.');
      case 'delete':
        await deleteIntegration(deps, access, integrationId);
        return redirect(back, 'Integration deleted.');
      case 'sample': {
        const before = await findIntegration(deps.db, access.project.id, integrationId);
        const after = await updateIntegration(deps, access, integrationId, { payloadExample: field(form, 'payload_example') });
        const changed = before.payload_example !== after.payload_example && before.payload_attribute_mapping !== '{}';
        return redirect(`${back}#integration-${integrationId}`, changed ? 'Sample payload saved. The sample changed: redo the mapping.' : 'Sample payload saved.');
      }
      case 'mapping': {
        const integration = await findIntegration(deps.db, access.project.id, integrationId);
        const mapping = mappingFromForm(JSON.parse(integration.payload_example), form);
        await updateIntegration(deps, access, integrationId, { payloadAttributeMapping: mapping });
        return redirect(`${back}#integration-${integrationId}`, 'Mapping saved.');
      }
      case 'test':
        return redirect(`${back}#integration-${integrationId}`, await sendTestAlert(context, access, integrationId));
      case 'incident':
        await updateIncidentSettings(deps, access, { createIssue: checked('create_issue'), sendEmail: checked('send_email'), autoCloseIncident: checked('auto_close_incident') });
        return redirect(back, 'Incident settings saved.');
      case 'tool':
        await updateIncidentSettings(deps, access, { alertingToolActive: checked('alerting_tool_active'), alertingToolUrl: field(form, 'alerting_tool_url') });
        return redirect(back, 'Incident alerting tool link saved.');
      default:
        return redirect(back, 'Error: unknown action.');
    }
  } catch (error) {
    const message = describe(error);
    if (message === null) throw error;
    return redirect(back, `Error: ${message}`);
  }
}

/** `send_test_alert` (Developers and above); the payload goes through the endpoint's own checks with the integration's key. */
async function sendTestAlert(context: PageContext, access: ProjectAccess, integrationId: number): Promise<string> {
  authorizeProject(access, 'send_test_alert');
  const { deps } = context;
  // GitLab limits integration tests to 5 a minute per user (docs/security.md, `project_testing_integration`).
  const limit = await hit(deps.db, deps.clock, `alert-test:${context.user.id}`, { limit: 5, windowMs: 60_000 });
  if (!limit.allowed) return `Error: too many test alerts; try again in ${limit.retryAfter} seconds.`;
  const integration = await findIntegration(deps.db, access.project.id, integrationId);
  const text = field(context.form, 'payload');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'Error: the test payload is not valid JSON.';
  }
  const result = await receiveAlert(deps, {
    fullPath: access.project.full_path,
    endpoint: { identifier: integration.endpoint_identifier },
    authorization: `Bearer ${deps.box.open(integration.token_sealed)}`,
    rawBody: text,
    body,
  });
  if (result.status === 200) return `Test alert sent successfully (alert #${result.body.map((alert) => alert.iid).join(', #')}).`;
  if (result.status === 403) return 'Error: the test alert was refused because the integration is not active.';
  return `Error: the test alert failed: ${result.body.message}`;
}
