// The whole database as Kysely sees it: one file of table types per feature in ./tables.
import type { AccountsTables } from './tables/accounts.js';
import type { IssuesTables } from './tables/issues.js';
import type { EventsTables } from './tables/events.js';
import type { PlatformTables } from './tables/platform.js';
import type { OauthTables } from './tables/oauth.js';
import type { AlertsTables } from './tables/alerts.js';
import type { EnvironmentsTables } from './tables/environments.js';
import type { NotificationsTables } from './tables/notifications.js';
import type { ErrorTrackingTables } from './tables/error-tracking.js';
import type { RepositoriesTables } from './tables/repositories.js';
import type { WebTables } from './tables/web.js';
import type { ApplicationSettingsTables } from './tables/application-settings.js';
import type { WebhooksTables } from './tables/webhooks.js';
import type { KeysTables } from './tables/keys.js';
import type { MergeRequestsTables } from './tables/merge-requests.js';
import type { ReviewTables } from './tables/review.js';
import type { CiTables } from './tables/ci.js';
import type { CiSettingsTables } from './tables/ci-settings.js';
import type { TodosTables } from './tables/todos.js';
import type { ReleasesTables } from './tables/releases.js';
import type { UploadsTables } from './tables/uploads.js';
import type { BoardsTables } from './tables/boards.js';
import type { SnippetsTables } from './tables/snippets.js';
import type { BroadcastMessagesTables } from './tables/broadcast-messages.js';
import type { BadgesTables } from './tables/badges.js';
import type { TopicsTables } from './tables/topics.js';
import type { CustomAttributesTables } from './tables/custom-attributes.js';
import type { AccessRequestsTables } from './tables/access-requests.js';
import type { TimelogsTables } from './tables/timelogs.js';
import type { WikisTables } from './tables/wikis.js';
import type { IdentitiesTables } from './tables/identities.js';

export interface DB
  extends AccountsTables,
    IssuesTables,
    EventsTables,
    PlatformTables,
    OauthTables,
    AlertsTables,
    EnvironmentsTables,
    NotificationsTables,
    ErrorTrackingTables,
    RepositoriesTables,
    WebTables,
    ApplicationSettingsTables,
    WebhooksTables,
    KeysTables,
    MergeRequestsTables,
    ReviewTables,
    CiTables,
    CiSettingsTables,
    TodosTables,
    ReleasesTables,
    UploadsTables,
    BoardsTables,
    SnippetsTables,
    BroadcastMessagesTables,
    BadgesTables,
    TopicsTables,
    CustomAttributesTables,
    AccessRequestsTables,
    TimelogsTables,
    WikisTables,
    IdentitiesTables {}
