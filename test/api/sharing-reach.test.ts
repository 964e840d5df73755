// Where a user who reaches a group or project only through a share (group_group_links,
// project_group_links) shows up, and where GitLab leaves them out. In: the issue sidebar's assignee
// choices (GitLab offers the project's authorized users) and the groups of the notifications page
// (GitLab's GroupsFinder over the user's authorized groups). Out: GET /namespaces (User#namespaces,
// direct group memberships), the OpenID `groups` claim (User#membership_groups) and the projects of
// the notifications page (the project settings GitLab keeps for direct memberships).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { WebSession } from '../helpers/browser-session.js';
import { registerApp, tokensFor } from './oauth-driver.js';

let kiln: TestKiln;
let owner: TestUser;
let maint: TestUser;
let stranger: TestUser;
let shared: { id: number };
let sub: { id: number };
let team: { id: number };
let app: { id: number };
let solo: { id: number };

async function signedIn(user: TestUser): Promise<WebSession> {
  const web = new WebSession(kiln);
  await web.signIn(user.username, user.password);
  return web;
}

beforeAll(async () => {
  kiln = await testKiln();
  owner = await kiln.createUser('owner');
  maint = await kiln.createUser('maint');
  stranger = await kiln.createUser('stranger');
  shared = await kiln.createGroup(owner, 'shared', { visibility: 'private' });
  sub = await kiln.createGroup(owner, 'sub', { visibility: 'private', parent_id: shared.id });
  const org = await kiln.createGroup(owner, 'org', { visibility: 'private' });
  team = await kiln.createGroup(owner, 'team', { visibility: 'private', parent_id: org.id });
  app = await kiln.createProject(owner, 'app', { visibility: 'private', namespace_id: shared.id });
  solo = await kiln.createProject(owner, 'solo', { visibility: 'private' });
  await kiln.addMember(owner, 'groups', team.id, maint, ACCESS.maintainer);
  // maint reaches shared (and shared/sub, shared/app) and owner/solo only through org/team's links.
  await kiln.apiAs(owner, 'POST', `/groups/${shared.id}/share`, { group_id: team.id, group_access: ACCESS.developer, expires_at: '2026-11-23' });
  await kiln.apiAs(owner, 'POST', `/projects/${solo.id}/share`, { group_id: team.id, group_access: ACCESS.reporter });
  await kiln.apiAs(owner, 'POST', `/projects/${app.id}/issues`, { title: 'Shared work' });
  await kiln.apiAs(owner, 'POST', `/projects/${solo.id}/issues`, { title: 'Solo work' });
});
afterAll(() => kiln.close());

describe('the issue sidebar', () => {
  it('offers an invited member as an assignee, through a group share and through a project share', async () => {
    const web = await signedIn(owner);
    for (const page of ['/shared/app/-/issues/1', '/owner/solo/-/issues/1']) {
      const { statusCode, body } = await web.get(page);
      expect(statusCode).toBe(200);
      const offered = /<select id="sidebar-assignees"[^>]*>(.*?)<\/select>/s.exec(body)?.[1] ?? '';
      expect(offered, page).toContain(`value="${maint.id}"`);
      expect(offered, page).toContain(`value="${owner.id}"`);
      expect(offered, page).not.toContain(`value="${stranger.id}"`);
    }
  });

  it('and assigning them keeps them', async () => {
    const { body } = await kiln.api('PUT', `/projects/${app.id}/issues/1`, { token: owner.token, body: { assignee_ids: [maint.id] } });
    expect(body.assignees.map((user: { id: number }) => user.id)).toEqual([maint.id]);
  });
});

describe('the notifications page', () => {
  it('lists the groups shared with the user\'s group and those below them, not the shared projects', async () => {
    const { body } = await (await signedIn(maint)).get('/profile/notifications');
    for (const group of [team, shared, sub]) expect(body).toContain(`id="form-group-${group.id}"`);
    expect(body).not.toContain(`id="form-project-${app.id}"`);
    expect(body).not.toContain(`id="form-project-${solo.id}"`);
    expect((await (await signedIn(stranger)).get('/profile/notifications')).body).not.toContain(`id="form-group-${shared.id}"`);
  });
});

describe('left as GitLab leaves them', () => {
  it('GET /namespaces lists the user\'s own groups only; GET /namespaces/:id reads a shared one', async () => {
    const { body } = await kiln.api('GET', '/namespaces', { token: maint.token });
    expect(body.map((row: { full_path: string }) => row.full_path)).toEqual(['maint', 'org/team']);
    expect((await kiln.api('GET', `/namespaces/${shared.id}`, { token: maint.token })).body).toMatchObject({ id: shared.id, full_path: 'shared' });
    expect((await kiln.api('GET', `/namespaces/${shared.id}`, { token: stranger.token })).status).toBe(404);
  });

  it('the OpenID groups claim names the groups the user is a member of, not the shared ones', async () => {
    const tokens = await tokensFor(kiln, maint, await registerApp(kiln), { scope: 'openid' });
    const response = await kiln.request('GET', '/oauth/userinfo', { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(JSON.parse(response.body).groups).toEqual(['org/team']);
  });
});

describe('after the group share expires', () => {
  it('the shared group leaves the notifications page and the sidebar', async () => {
    kiln.clock.advance(2 * 24 * 3600_000);
    expect((await (await signedIn(maint)).get('/profile/notifications')).body).not.toContain(`id="form-group-${shared.id}"`);
    const { body } = await (await signedIn(owner)).get('/shared/app/-/issues/1');
    expect(/<select id="sidebar-assignees"[^>]*>(.*?)<\/select>/s.exec(body)?.[1] ?? '').not.toContain(`value="${maint.id}"`);
  });
});
