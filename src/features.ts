// Every capability, in registration order. A new feature folder adds one line here.
import type { Feature } from './platform/feature.js';
import { accountsFeature } from './accounts/index.js';
import { issuesFeature } from './issues/index.js';
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
import { applicationSettingsFeature } from './application-settings/index.js';
import { markdownFeature } from './markdown/index.js';
import { namespacesFeature } from './namespaces/index.js';
import { searchFeature } from './search/index.js';

export const features: Feature[] = [accountsFeature, issuesFeature, webAssetsFeature, dashboardFeature, housekeepingFeature, eventsFeature, notificationsFeature, environmentsFeature, errorTrackingFeature, alertsFeature, repositoriesFeature, oauthFeature];


// Issue 17: outgoing e-mail (the outbox, its delivery and admin page).
import { emailFeature } from './email/index.js';
features.push(emailFeature);

// Issue 15's API breadth: application settings and metadata, namespaces, search, Markdown.
features.push(applicationSettingsFeature, markdownFeature, namespacesFeature, searchFeature);

// Issue 15: labels and milestones (issues use them through their api.ts).
import { labelsFeature } from './labels/index.js';
import { milestonesFeature } from './milestones/index.js';
features.push(labelsFeature, milestonesFeature);

// Issue 18: outgoing events (project, group and system webhooks; the Slack-compatible integration).
import { webhooksFeature } from './webhooks/index.js';
features.push(webhooksFeature);

// Issue 16: the pages behind every web_url. The namespace pages take what no other route took: last.
import { issuePagesFeature } from './issues/index.js';
import { accountPagesFeature } from './accounts/index.js';
import { namespacePagesFeature } from './namespace-pages/index.js';
features.push(issuePagesFeature, accountPagesFeature, namespacePagesFeature);
