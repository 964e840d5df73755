// Repository settings pages: who administers the project reads them and protects tags; protecting
// branches is its own ability (admin_protected_branch), asked again by those forms; housekeeping is
// the administrators' (admin_project).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { namespacedPage, type PageContext } from '../../platform/web/page-route.js';
import type { PageOutcome } from '../../platform/web/page.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import type { ProjectAbility } from '../../platform/auth/policies/abilities.js';
import {
  HOUSEKEEPING_PATTERN, PROTECT_BRANCH_PATTERN, PROTECT_TAG_PATTERN, REPOSITORY_SETTINGS_PATTERN, UNPROTECT_BRANCH_PATTERN, UNPROTECT_TAG_PATTERN,
  housekeepingFromForm, protectBranchFromForm, protectTagFromForm, renderRepositorySettings, unprotectBranchFromForm, unprotectTagFromForm,
} from './repository-settings-page.js';

type Render = (context: PageContext, access: ProjectAccess) => Promise<PageOutcome>;

export function repositorySettingsPages(app: FastifyInstance, deps: Deps): void {
  const routes: ['GET' | 'POST', RegExp, ProjectAbility, Render][] = [
    ['GET', REPOSITORY_SETTINGS_PATTERN, 'admin_project', renderRepositorySettings],
    ['POST', PROTECT_BRANCH_PATTERN, 'admin_protected_branch', protectBranchFromForm],
    ['POST', UNPROTECT_BRANCH_PATTERN, 'admin_protected_branch', unprotectBranchFromForm],
    ['POST', PROTECT_TAG_PATTERN, 'admin_project', protectTagFromForm],
    ['POST', UNPROTECT_TAG_PATTERN, 'admin_project', unprotectTagFromForm],
    ['POST', HOUSEKEEPING_PATTERN, 'admin_project', housekeepingFromForm],
  ];
  for (const [method, pattern, ability, render] of routes) namespacedPage(app, deps, { method, pattern, ability: { project: ability }, handler: async (context) => render(context, await context.project()) });
}
