// The free tier has no epics: new_epic is absent from every setting (specification; docs/decisions.md tiers).
// Its own file: a test kiln per file (a second one in one file trips the PostgreSQL migrator, see the report).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';

const CE_EVENTS = [
  'new_note', 'new_issue', 'reopen_issue', 'close_issue', 'reassign_issue', 'issue_due', 'new_merge_request',
  'push_to_merge_request', 'reopen_merge_request', 'close_merge_request', 'reassign_merge_request',
  'merge_merge_request', 'failed_pipeline', 'fixed_pipeline', 'success_pipeline', 'moved_project',
  'merge_when_pipeline_succeeds',
];

let free: TestKiln;
beforeAll(async () => {
  free = await testKiln({ tier: 'free' });
});
afterAll(() => free.close());

describe('PUT /api/v4/notification_settings and /groups/:id/notification_settings on the free tier', () => {
  it('omits new_epic from the global and group events', async () => {
    const user = await free.createUser('frank');
    const team = await free.createGroup(user, 'frank-team');
    const global = await free.api('PUT', '/notification_settings', { token: user.token, body: { level: 'custom', new_epic: true } });
    expect(Object.keys(global.body.events)).toEqual(CE_EVENTS);
    const grouped = await free.api('PUT', `/groups/${team.id}/notification_settings`, { token: user.token, body: { level: 'custom' } });
    expect(Object.keys(grouped.body.events)).toEqual(CE_EVENTS);
  });
});
