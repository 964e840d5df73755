// Raw statements of the notification listeners, which run inside a producer's transaction (a
// group-commit work on the alert endpoint's path has only raw statements).
import { q } from '../platform/db/statements.js';

/** The incident setting "send a single e-mail notification to Owners and Maintainers for new alerts". */
export const alertEmailSetting = (projectId: number) => q`select send_email from project_incident_management_settings where project_id = ${projectId}`;
