// Who may do what with environments and deployments (gitlab-rest.md §3.1, GitLab's project_policy.rb
// and environment_policy.rb): Reporter reads, Developer changes. Callers already hold a readable project.
import { ACCESS } from '../platform/auth/access-levels.js';
import { requireLevel, type ProjectAccess } from '../accounts/lookup.js';

export const requireReadEnvironment = (access: ProjectAccess) => requireLevel(access, ACCESS.reporter);
export const requireWriteEnvironment = (access: ProjectAccess) => requireLevel(access, ACCESS.developer);
export const canWriteEnvironment = (access: ProjectAccess) => access.level >= ACCESS.developer;
