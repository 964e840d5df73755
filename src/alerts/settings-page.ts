// Settings > Operations (specification, Alert ingestion endpoint; GitLab's alert management documentation,
// §21, §22): alert integrations for Maintainers and above, a test tab for Developers and above,
// incident settings and the incident alerting tool link.
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { canOnProject } from '../platform/auth/policies/policy.js';
import { html, type Html } from '../platform/web/html.js';
import { csrfField, type PageContext } from '../platform/web/page-route.js';
import { page } from '../platform/web/page.js';
import { integrationUrl } from './entities.js';
import { projectIntegrationsQuery } from './finder.js';
import { incidentSettings, type IncidentSettings } from './incident-settings.js';
import type { IntegrationRow } from './integration-row.js';
import { mappingFormFields, staleMapping } from './mapping-form.js';
import type { AttributeMapping } from './payload/mapping.js';

export const SETTINGS_PATTERN = /^(?<path>.+?)\/-\/settings\/operations$/;

const GENERIC_SAMPLE = '{"title": "Test alert", "severity": "low"}';
// A minimal Alertmanager webhook (docs/clients.md), what the Prometheus integration accepts.
const PROMETHEUS_SAMPLE = JSON.stringify({
  version: '4', groupKey: '{}:{alertname="TestAlert"}', status: 'firing', receiver: 'kiln', groupLabels: { alertname: 'TestAlert' },
  commonLabels: { alertname: 'TestAlert' }, commonAnnotations: {}, externalURL: 'http://alertmanager.example:9093',
  alerts: [{ status: 'firing', labels: { alertname: 'TestAlert', severity: 'low' }, annotations: { summary: 'Test alert' }, startsAt: '2026-01-01T00:00:00Z', endsAt: '0001-01-01T00:00:00Z', generatorURL: 'http://prometheus.example:9090/graph?g0.expr=up' }],
}, null, 2);

const TOOL_RULE = 'While the incident alerting tool link is active, no other alert integration can be active: deactivate the integrations before activating it, and deactivate it before activating an integration.';

export async function renderSettings(context: PageContext, access: ProjectAccess) {
  const { deps } = context;
  const projectId = access.project.id;
  const integrations = await projectIntegrationsQuery(deps.db, projectId).execute();
  const settings = await incidentSettings(deps.db, projectId);
  const configures = canOnProject(access, 'admin_operations');
  const action = `/${access.project.full_path}/-/settings/operations`;
  const form = (name: string, body: Html, extra: Html | string = '') => html`<form method="post" action="${action}" class="stacked"${extra}>${csrfField(context)}<input type="hidden" name="action" value="${name}">${body}</form>`;
  const body = html`
    <h2>Alert integrations</h2>
    ${settings.alertingToolActive ? html`<p class="error">${TOOL_RULE}</p>` : ''}
    ${integrations.length === 0 ? html`<p class="muted">No integrations yet.</p>` : html`<table id="integrations"><thead><tr><th>Name</th><th>Type</th><th>Status</th></tr></thead><tbody>
      ${integrations.map((i) => html`<tr><td><a href="#integration-${i.id}">${i.name}</a></td><td>${i.type_identifier === 'http' ? 'HTTP endpoint' : 'Prometheus'}</td><td>${i.active ? 'Active' : 'Inactive'}</td></tr>`)}
    </tbody></table>`}
    ${integrations.map((integration) => integrationSection(context, access, integration, form, configures))}
    ${configures ? html`<h2>Add an integration</h2>${form('create', html`
      <label for="new-name">Name</label><input type="text" id="new-name" name="name" required maxlength="255">
      <label for="new-type">Type</label><select id="new-type" name="type"><option value="http">HTTP endpoint</option><option value="prometheus">Prometheus</option></select>
      <label><input type="checkbox" name="active" value="1" checked> Active</label>
      <p><button type="submit">Save integration</button></p>`)}` : ''}
    ${configures ? incidentForms(settings, form) : ''}`;
  return page({ title: 'Operations settings', body });
}

function integrationSection(context: PageContext, access: ProjectAccess, integration: IntegrationRow, form: (name: string, body: Html, extra?: Html | string) => Html, configures: boolean): Html {
  const { deps } = context;
  const id = html`<input type="hidden" name="integration_id" value="${integration.id}">`;
  const url = integrationUrl(deps.config.baseUrl, access.project, integration);
  const paid = deps.config.tier !== 'free';
  const sample = JSON.parse(integration.payload_example) as unknown;
  const mapping = JSON.parse(integration.payload_attribute_mapping) as AttributeMapping;
  const stale = staleMapping(sample, mapping);
  return html`<section id="integration-${integration.id}">
    <h3>${integration.name}</h3>
    ${configures ? html`
      <details open><summary>Edit</summary>${form('update', html`${id}
        <label for="name-${integration.id}">Name</label><input type="text" id="name-${integration.id}" name="name" value="${integration.name}" maxlength="255">
        <label><input type="checkbox" name="active" value="1"${integration.active ? html` checked` : ''}> Active</label>
        <p><button type="submit">Save</button></p>`)}</details>
      <details><summary>View credentials</summary>
        <p>Webhook URL: <code class="webhook-url">${url}</code></p>
        <p>Authorization key: <code class="authorization-key">${deps.box.open(integration.token_sealed)}</code></p>
        ${form('reset', html`${id}<button type="submit" class="secondary">Reset key</button>`)}
      </details>
      ${paid && integration.type_identifier === 'http' ? html`<details><summary>Custom field mapping</summary>
        ${form('sample', html`${id}<label for="sample-${integration.id}">Sample payload (JSON)</label>
          <textarea id="sample-${integration.id}" name="payload_example">${JSON.stringify(sample, null, 2)}</textarea>
          <p><button type="submit" class="secondary">Save sample payload</button></p>`)}
        ${stale.length ? html`<p class="error">The sample payload changed: redo the mapping (${stale.join(', ')} no longer found in the sample).</p>` : ''}
        ${form('mapping', html`${id}${mappingFormFields(sample, mapping)}<p><button type="submit">Save mapping</button></p>`)}
      </details>` : ''}
      ${form('delete', html`${id}<button type="submit" class="danger">Delete integration</button>`)}` : ''}
    <details><summary>Send test alert</summary>${form('test', html`${id}
      <label for="test-${integration.id}">Alert payload (JSON)</label>
      <textarea id="test-${integration.id}" name="payload">${integration.type_identifier === 'prometheus' ? PROMETHEUS_SAMPLE : GENERIC_SAMPLE}</textarea>
      <p><button type="submit">Send</button></p>`)}</details>
  </section>`;
}

function incidentForms(settings: IncidentSettings, form: (name: string, body: Html) => Html): Html {
  return html`<h2>Incidents</h2>${form('incident', html`
    <label><input type="checkbox" name="create_issue" value="1"${settings.createIssue ? html` checked` : ''}> Create an incident for each new alert</label>
    <label><input type="checkbox" name="send_email" value="1"${settings.sendEmail ? html` checked` : ''}> Send a single email notification to Owners and Maintainers for new alerts</label>
    <label><input type="checkbox" name="auto_close_incident" value="1"${settings.autoCloseIncident ? html` checked` : ''}> Close the incident automatically when its alert resolves</label>
    <p><button type="submit">Save incident settings</button></p>`)}
    <h2>Incident alerting tool link</h2>
    <p class="muted">${TOOL_RULE}</p>
    ${form('tool', html`
      <label><input type="checkbox" name="alerting_tool_active" value="1"${settings.alertingToolActive ? html` checked` : ''}> Active</label>
      <label for="tool-url">API URL</label><input type="url" id="tool-url" name="alerting_tool_url" value="${settings.alertingToolUrl ?? ''}">
      <p><button type="submit">Save link</button></p>`)}`;
}
