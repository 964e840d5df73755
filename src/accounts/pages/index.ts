// The accounts pages of issue 16: new project and group forms, members of projects and groups, a
// project's general settings. A feature of its own, registered before the namespace pages (features.ts)
// so that `/<project>/edit` is not taken for a project's path.
import type { Feature } from '../../platform/feature.js';
import { namespacedPage } from '../../platform/web/page-route.js';
import { newProjectPages } from './new-project-page.js';
import { newGroupPages } from './new-group-page.js';
import { GROUP_MEMBERS_PATTERN, PROJECT_MEMBERS_PATTERN, groupTarget, handleMembersPost, projectTarget, renderMembers } from './members-page.js';
import { PROJECT_EDIT_PATTERN, handleProjectSettings, renderProjectSettings } from './project-settings-page.js';
import { GROUP_EDIT_PATTERN, handleGroupSettings, renderGroupSettings } from './group-settings-page.js';

export const accountPagesFeature: Feature = {
  name: 'account-pages',
  routes(app, deps) {
    newProjectPages(app, deps);
    newGroupPages(app, deps);
    // Reading members is read_*_member; the forms' actions ask admin_*_member, or the member policy
    // for leaving (as DELETE …/members/:user_id does).
    namespacedPage(app, deps, { method: 'GET', pattern: PROJECT_MEMBERS_PATTERN, ability: { project: 'read_project_member' }, handler: async (context) => renderMembers(context, projectTarget(await context.project())) });
    namespacedPage(app, deps, { method: 'POST', pattern: PROJECT_MEMBERS_PATTERN, ability: { project: 'read_project_member' }, handler: async (context) => handleMembersPost(context, projectTarget(await context.project())) });
    namespacedPage(app, deps, { method: 'GET', pattern: GROUP_MEMBERS_PATTERN, ability: { group: 'read_group_member' }, handler: async (context) => renderMembers(context, groupTarget(await context.group())) });
    namespacedPage(app, deps, { method: 'POST', pattern: GROUP_MEMBERS_PATTERN, ability: { group: 'read_group_member' }, handler: async (context) => handleMembersPost(context, groupTarget(await context.group())) });
    namespacedPage(app, deps, { method: 'GET', pattern: PROJECT_EDIT_PATTERN, ability: { project: 'admin_project' }, handler: async (context) => renderProjectSettings(context, await context.project()) });
    // A group's settings are its Owners' (admin_group); deleting asks remove_group in the handler.
    namespacedPage(app, deps, { method: 'GET', pattern: GROUP_EDIT_PATTERN, ability: { group: 'admin_group' }, handler: async (context) => renderGroupSettings(context, await context.group()) });
    namespacedPage(app, deps, { method: 'POST', pattern: GROUP_EDIT_PATTERN, ability: { group: 'admin_group' }, handler: async (context) => handleGroupSettings(context, await context.group()) });
    namespacedPage(app, deps, { method: 'POST', pattern: PROJECT_EDIT_PATTERN, ability: { project: 'admin_project' }, handler: async (context) => handleProjectSettings(context, await context.project()) });
  },
};
