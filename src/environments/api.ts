// What other features may use of environments. Everything else in this folder is internal
// (docs/architecture.md, "Boundaries").
// Issue 39 (CI): deployments made by jobs, and their status following the job's.
export { createJobDeployment, jobDeploymentChanged, type JobDeploymentInput } from './job-deployments.js';
export { environmentHooks, type EnvironmentHooks } from './hooks.js';
