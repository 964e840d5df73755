// What other features may use of alerts: the names of severities as GitLab shows them. Everything
// else in this folder is internal (docs/architecture.md, "Boundaries").
export { severityName, titleCase } from './model.js';
// Issue 16: an environment's page shows its open alerts.
export { statusName } from './model.js';
export { openAlertsOfEnvironment } from './environment-alerts.js';
