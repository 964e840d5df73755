// Notification settings at global, group and project level, and the e-mail they decide: recipients
// of issue, merge request, snippet comment and alert notifications, subscriptions to issues and merge requests, the unsubscribe link.
import type { Feature } from '../platform/feature.js';
import { notificationsRoutes } from './routes.js';
import { notificationPages } from './pages.js';
import { subscriptionRoutes } from './subscription-routes.js';
import { unsubscribePages } from './unsubscribe-pages.js';
import { listenForNotifications } from './listeners.js';
import { JOB_NOTIFY_ISSUE, notifyIssueEvent } from './notify-issue-event.js';
import { JOB_NOTIFY_ALERT, notifyNewAlert } from './notify-new-alert.js';
import { JOB_NOTIFY_MERGE_REQUEST, notifyMergeRequestEvent } from './notify-merge-request-event.js';
import { ISSUES_DUE_JOB, issuesDueJob } from './issues-due.js';
import { JOB_NOTIFY_PIPELINE, notifyPipeline } from './notify-pipeline.js';
import { JOB_NOTIFY_SNIPPET_NOTE, notifySnippetNote } from './notify-snippet-note.js';
import { JOB_NOTIFY_PERSONAL_SNIPPET_NOTE, notifyPersonalSnippetNote } from './notify-personal-snippet-note.js';
import { scheduleOnce } from '../platform/jobs/daily.js';
import { accountHooks } from '../accounts/api.js';
import { issueHooks } from '../issues/api.js';
import { subscribedIds, subscribedIssueIds } from './subscribed-issues.js';
import { mergeRequestHooks } from '../merge-requests/api.js';
import { setNotificationEmail } from './set-notification-email.js';

export const notificationsFeature: Feature = {
  name: 'notifications',
  setup(deps) {
    listenForNotifications(deps);
    accountHooks(deps).setNotificationEmail = (user, email) => setNotificationEmail(deps, user, email);
    issueHooks(deps).subscribedIssueIds = (user, issues) => subscribedIssueIds(deps, user, issues);
    mergeRequestHooks(deps).subscribed = async (user, mr) => (await subscribedIds(deps, user, 'MergeRequest', [mr])).has(Number(mr.id));
  },
  routes(app, deps) {
    notificationsRoutes(app, deps);
    notificationPages(app, deps);
    subscriptionRoutes(app, deps);
    unsubscribePages(app, deps);
  },
  jobs: { [JOB_NOTIFY_ISSUE]: notifyIssueEvent, [JOB_NOTIFY_MERGE_REQUEST]: notifyMergeRequestEvent, [JOB_NOTIFY_ALERT]: notifyNewAlert, [ISSUES_DUE_JOB]: issuesDueJob, [JOB_NOTIFY_PIPELINE]: notifyPipeline, [JOB_NOTIFY_SNIPPET_NOTE]: notifySnippetNote, [JOB_NOTIFY_PERSONAL_SNIPPET_NOTE]: notifyPersonalSnippetNote },
  async onStart(deps) {
    await scheduleOnce(deps, ISSUES_DUE_JOB, deps.clock.now(), { orRunning: true });
  },
};
