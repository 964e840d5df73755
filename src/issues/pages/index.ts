// The issue and incident pages under a project's full path. Registered as their own feature, after
// every feature's namespaced routes (the project page under the bare path comes last of all).
import type { Feature } from '../../platform/feature.js';
import { namespacedPage } from '../../platform/web/page-route.js';
import { GROUP_ISSUES_PATTERN, INCIDENTS_PATTERN, ISSUES_PATTERN, renderGroupIssueList, renderIssueList } from './list-page.js';
import { ISSUE_AWARD_PATTERN, ISSUE_NOTE_AWARD_PATTERN, ISSUE_PATTERN, handleIssueAward, handleIssueNoteAward, handleIssuePost, renderIssue } from './show-page.js';
import { NEW_ISSUE_PATTERN, handleNewIssue, renderNewIssue } from './new-page.js';
import { milestonePages } from './milestones/index.js';
import { ISSUE_SIDEBAR_PATTERN, handleSidebarPost } from './sidebar-post.js';
import { ISSUE_TASKS_PATTERN, handleTasksPost } from './tasks-post.js';
import { ISSUE_EDIT_PATTERN, handleEditIssue, renderEditIssue } from './edit-page.js';

export const issuePagesFeature: Feature = {
  name: 'issue-pages',
  routes(app, deps) {
    const read = { project: 'read_issue' } as const;
    // A group's issues (before the project list's pattern, which `groups/<path>/-/issues` would match too):
    // the group's readers, each row readable by them (GET /groups/:id/issues).
    namespacedPage(app, deps, { method: 'GET', pattern: GROUP_ISSUES_PATTERN, ability: { group: 'read_group' }, auth: 'optional', handler: async (context) => renderGroupIssueList(context, await context.group()) });
    // Public projects' issues are readable without signing in, as GitLab serves them.
    namespacedPage(app, deps, { method: 'GET', pattern: ISSUES_PATTERN, ability: read, auth: 'optional', handler: async (context) => renderIssueList(context, await context.project(), 'issue') });
    namespacedPage(app, deps, { method: 'GET', pattern: INCIDENTS_PATTERN, ability: read, auth: 'optional', handler: async (context) => renderIssueList(context, await context.project(), 'incident') });
    namespacedPage(app, deps, { method: 'GET', pattern: NEW_ISSUE_PATTERN, ability: { project: 'create_issue' }, handler: async (context) => renderNewIssue(context, await context.project()) });
    namespacedPage(app, deps, { method: 'POST', pattern: NEW_ISSUE_PATTERN, ability: { project: 'create_issue' }, handler: async (context) => handleNewIssue(context, await context.project()) });
    namespacedPage(app, deps, { method: 'GET', pattern: ISSUE_PATTERN, ability: read, auth: 'optional', handler: async (context) => renderIssue(context, await context.project()) });
    // A comment asks create_note, closing asks update on the issue itself: the handler decides.
    namespacedPage(app, deps, { method: 'POST', pattern: ISSUE_PATTERN, ability: read, handler: async (context) => handleIssuePost(context, await context.project()) });
    // The sidebar asks set_issue_metadata, editing and ticking tasks update_issue on the issue itself
    // (its author may): the handlers decide, after the issue is found readable.
    namespacedPage(app, deps, { method: 'POST', pattern: ISSUE_SIDEBAR_PATTERN, ability: read, handler: async (context) => handleSidebarPost(context, await context.project()) });
    namespacedPage(app, deps, { method: 'POST', pattern: ISSUE_AWARD_PATTERN, ability: read, handler: async (context) => handleIssueAward(context, await context.project()) });
    namespacedPage(app, deps, { method: 'POST', pattern: ISSUE_NOTE_AWARD_PATTERN, ability: read, handler: async (context) => handleIssueNoteAward(context, await context.project()) });
    namespacedPage(app, deps, { method: 'POST', pattern: ISSUE_TASKS_PATTERN, ability: read, handler: async (context) => handleTasksPost(context, await context.project()) });
    namespacedPage(app, deps, { method: 'GET', pattern: ISSUE_EDIT_PATTERN, ability: read, handler: async (context) => renderEditIssue(context, await context.project()) });
    namespacedPage(app, deps, { method: 'POST', pattern: ISSUE_EDIT_PATTERN, ability: read, handler: async (context) => handleEditIssue(context, await context.project()) });
    milestonePages(app, deps);
  },
};
