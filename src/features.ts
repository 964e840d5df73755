// Every capability, in registration order. A new feature folder adds its import and one entry here.
// Order matters only for namespaced routes and pages (matched in registration order): the namespace
// pages take what no other route took, so they come last.
import type { Feature } from './platform/feature.js';
import { accountsFeature, accountPagesFeature } from './accounts/index.js';
import { boardsFeature, issuesFeature, issuePagesFeature } from './issues/index.js';
import { dashboardFeature } from './dashboard/index.js';
import { webAssetsFeature } from './platform/web/assets.js';
import { housekeepingFeature } from './platform/jobs/housekeeping.js';
import { eventsFeature } from './events/index.js';
import { notificationsFeature } from './notifications/index.js';
import { environmentsFeature } from './environments/index.js';
import { errorTrackingFeature } from './error-tracking/index.js';
import { alertsFeature } from './alerts/index.js';
import { repositoriesFeature } from './repositories/index.js';
import { oauthFeature } from './oauth/index.js';
import { emailFeature } from './email/index.js';
import { applicationSettingsFeature } from './application-settings/index.js';
import { markdownFeature } from './markdown/index.js';
import { namespacesFeature } from './namespaces/index.js';
import { searchFeature } from './search/index.js';
import { labelsFeature, labelPagesFeature } from './labels/index.js';
import { milestonesFeature } from './milestones/index.js';
import { webhooksFeature } from './webhooks/index.js';
import { mergeRequestsFeature, mergeRequestPagesFeature } from './merge-requests/index.js';
import { commitStatusesFeature } from './commit-statuses/index.js';
import { ciFeature } from './ci/index.js';
import { forksFeature } from './forks/index.js';
import { namespacePagesFeature } from './namespace-pages/index.js';
import { keysFeature } from './keys/index.js';
import { sshFeature } from './ssh/index.js';
import { adminFeature } from './admin/index.js';
import { broadcastMessagesFeature } from './broadcast-messages/index.js';
import { todosFeature } from './todos/index.js';
import { releasesFeature } from './releases/index.js';
import { uploadsFeature } from './uploads/index.js';
import { snippetsFeature } from './snippets/index.js';
import { exploreFeature } from './explore/index.js';
import { wikisFeature } from './wikis/index.js';
import { badgesFeature } from './badges/index.js';
import { topicsFeature } from './topics/index.js';
import { customAttributesFeature } from './custom-attributes/index.js';
import { templatesFeature } from './templates/index.js';

export const features: Feature[] = [
  accountsFeature,
  issuesFeature,
  webAssetsFeature,
  dashboardFeature,
  exploreFeature,
  housekeepingFeature,
  eventsFeature,
  notificationsFeature,
  environmentsFeature,
  errorTrackingFeature,
  alertsFeature,
  repositoriesFeature,
  oauthFeature,
  emailFeature,
  applicationSettingsFeature,
  markdownFeature,
  namespacesFeature,
  searchFeature,
  labelsFeature,
  milestonesFeature,
  webhooksFeature,
  keysFeature,
  sshFeature,
  adminFeature,
  broadcastMessagesFeature,
  todosFeature,
  mergeRequestsFeature,
  commitStatusesFeature,
  ciFeature,
  forksFeature,
  releasesFeature,
  // Before uploads: a wiki's attachments live at /<project>/-/wikis/uploads/<hex>/<file>, which the
  // uploads pages' /<path>/uploads/<secret>/<file> would otherwise take.
  wikisFeature,
  uploadsFeature,
  snippetsFeature,
  badgesFeature,
  topicsFeature,
  customAttributesFeature,
  templatesFeature,
  boardsFeature,
  issuePagesFeature,
  mergeRequestPagesFeature,
  labelPagesFeature,
  accountPagesFeature,
  namespacePagesFeature,
];
