// The permission matrix as data: for every role and visibility, whether an ability is allowed, each
// row one HTTP request through the API. The expectations are written from GitLab's "Permissions and
// roles" table, not computed from Kiln's own policy tables, so a wrong rule in either place fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { ACCESS } from '../../src/platform/auth/access-levels.js';
import { WebSession } from '../helpers/browser-session.js';

const ROLES = ['anonymous', 'non_member', 'guest', 'reporter', 'developer', 'maintainer', 'owner', 'admin', 'blocked'] as const;
type Role = (typeof ROLES)[number];
const VISIBILITIES = ['private', 'internal', 'public'] as const;
type Visibility = (typeof VISIBILITIES)[number];

/** One character per role, in ROLES order: `y` allowed, `n` refused. */
type Expectation = string | Record<Visibility, string>;

type RefName = 'main' | 'ci-pages';

interface World {
  group: any;
  project: any;
  spareProjectMember: TestUser;
  spareGroupMember: TestUser;
  /** A pipeline (and its pending job) of the protected `main` and of the unprotected `ci-pages`, made on first use. */
  refPipelines?: Record<RefName, { pipeline: number; job: number }>;
  /** What the ensure… helpers have made, so that a probe asks the repository only the first time. */
  made: Set<'main' | 'merge request' | 'ci'>;
}

interface Probe {
  ability: string;
  expect: Expectation;
  request(kiln: TestKiln, world: World, token: string | undefined, serial: number): Promise<{ status: number; body: any }>;
  /** Whether a 2xx answer shows the ability (defaults to the status alone). */
  allowed?(answer: { status: number; body: any }): boolean;
}

const READ = { private: 'nnyyyyyyn', internal: 'nyyyyyyyn', public: 'yyyyyyyyn' };
const PARTICIPATE = { private: 'nnyyyyyyn', internal: 'nyyyyyyyn', public: 'nyyyyyyyn' };

const PROBES: Probe[] = [
  { ability: 'read_project', expect: READ, request: (k, w, token) => k.api('GET', `/projects/${w.project.id}`, { token }) },
  { ability: 'read_issue', expect: READ, request: (k, w, token) => k.api('GET', `/projects/${w.project.id}/issues/1`, { token }) },
  { ability: 'read_note', expect: READ, request: (k, w, token) => k.api('GET', `/projects/${w.project.id}/issues/1/notes`, { token }) },
  { ability: 'read_confidential_issues (direct read)', expect: 'nnnyyyyyn', request: (k, w, token) => k.api('GET', `/projects/${w.project.id}/issues/2`, { token }) },
  {
    ability: 'read_confidential_issues (in the list)',
    expect: 'nnnyyyyyn',
    request: (k, w, token) => k.api('GET', `/projects/${w.project.id}/issues`, { token }),
    allowed: (answer) => Array.isArray(answer.body) && answer.body.some((issue: any) => issue.iid === 2),
  },
  { ability: 'create_issue', expect: PARTICIPATE, request: (k, w, token) => k.api('POST', `/projects/${w.project.id}/issues`, { token, body: { title: 'probe' } }) },
  { ability: 'create_note', expect: PARTICIPATE, request: (k, w, token) => k.api('POST', `/projects/${w.project.id}/issues/1/notes`, { token, body: { body: 'probe' } }) },
  { ability: 'update_issue', expect: 'nnnyyyyyn', request: (k, w, token) => k.api('PUT', `/projects/${w.project.id}/issues/1`, { token, body: { description: 'probe' } }) },
  // GitLab's members API needs a signed-in caller (lib/api/members.rb authenticates first).
  { ability: 'read_project_member', expect: PARTICIPATE, request: (k, w, token) => k.api('GET', `/projects/${w.project.id}/members`, { token }) },
  {
    ability: 'admin_project_member',
    expect: 'nnnnnyyyn',
    request: (k, w, token) => k.api('PUT', `/projects/${w.project.id}/members/${w.spareProjectMember.id}`, { token, body: { access_level: ACCESS.guest } }),
  },
  { ability: 'read_environment', expect: 'nnnyyyyyn', request: (k, w, token) => k.api('GET', `/projects/${w.project.id}/environments`, { token }) },
  { ability: 'create_environment', expect: 'nnnnyyyyn', request: (k, w, token, serial) => k.api('POST', `/projects/${w.project.id}/environments`, { token, body: { name: `probe-${serial}` } }) },
  { ability: 'read_deployment', expect: 'nnnyyyyyn', request: (k, w, token) => k.api('GET', `/projects/${w.project.id}/deployments`, { token }) },
  { ability: 'read_alert_management_alert', expect: 'nnnnyyyyn', request: (k, w, token) => k.api('GET', `/projects/${w.project.id}/alert_management_alerts`, { token }) },
  { ability: 'admin_operations', expect: 'nnnnnyyyn', request: (k, w, token) => k.api('GET', `/projects/${w.project.id}/alert_management/integrations`, { token }) },
  { ability: 'read_error_tracking_settings', expect: 'nnnnnyyyn', request: (k, w, token) => k.api('GET', `/projects/${w.project.id}/error_tracking/settings`, { token }) },
  { ability: 'read_events', expect: READ, request: (k, w, token) => k.api('GET', `/projects/${w.project.id}/events`, { token }) },
  {
    ability: 'remove_project',
    expect: 'nnnnnnyyn',
    request: async (k, w, token, serial) => {
      const fresh = await k.createProject(k.root, `doomed-${serial}`, { namespace_id: w.group.id, visibility: w.project.visibility });
      return k.api('DELETE', `/projects/${fresh.id}`, { token });
    },
  },
  { ability: 'read_group', expect: READ, request: (k, w, token) => k.api('GET', `/groups/${w.group.id}`, { token }) },
  { ability: 'read_group_member', expect: PARTICIPATE, request: (k, w, token) => k.api('GET', `/groups/${w.group.id}/members`, { token }) },
  {
    ability: 'admin_group_member',
    expect: 'nnnnnnyyn',
    request: (k, w, token) => k.api('PUT', `/groups/${w.group.id}/members/${w.spareGroupMember.id}`, { token, body: { access_level: ACCESS.guest } }),
  },
  {
    ability: 'create_projects',
    expect: 'nnnnyyyyn',
    request: (k, w, token, serial) => k.api('POST', '/projects', { token, body: { name: `made-${serial}`, path: `made-${serial}`, namespace_id: w.group.id, visibility: 'private' } }),
  },
  {
    ability: 'create_subgroup',
    expect: 'nnnnnyyyn',
    request: (k, w, token, serial) => k.api('POST', '/groups', { token, body: { name: `sub-${serial}`, path: `sub-${serial}`, parent_id: w.group.id, visibility: 'private' } }),
  },
  // Namespaces and search (issue 15): both need a signed-in caller (lib/api/namespaces.rb and
  // search.rb authenticate first); a group namespace is read by whoever reads the group.
  { ability: 'read_namespace', expect: PARTICIPATE, request: (k, w, token) => k.api('GET', `/namespaces/${w.group.id}`, { token }) },
  { ability: 'read_group (group search)', expect: PARTICIPATE, request: (k, w, token) => k.api('GET', `/groups/${w.group.id}/search`, { token, query: { scope: 'projects', search: 'app' } }) },
  { ability: 'read_project (project search)', expect: PARTICIPATE, request: (k, w, token) => k.api('GET', `/projects/${w.project.id}/search`, { token, query: { scope: 'issues', search: 'open' } }) },
  {
    ability: 'read_confidential_issues (in search results)',
    expect: 'nnnyyyyyn',
    request: (k, w, token) => k.api('GET', `/projects/${w.project.id}/search`, { token, query: { scope: 'issues', search: 'secret' } }),
    allowed: (answer) => Array.isArray(answer.body) && answer.body.some((issue: any) => issue.iid === 2),
  },
  // The repository API: reading code (Reporters of a private project, anyone who reads a public one),
  // committing to an unprotected branch and tagging (Developers).
  {
    ability: 'download_code',
    expect: { private: 'nnnyyyyyn', internal: 'nyyyyyyyn', public: 'yyyyyyyyn' },
    request: async (k, w, token) => {
      await ensureDefaultBranch(k, w);
      return k.api('GET', `/projects/${w.project.id}/repository/tree`, { token });
    },
  },
  {
    ability: 'push_code',
    expect: 'nnnnyyyyn',
    request: async (k, w, token, serial) => {
      await ensureDefaultBranch(k, w);
      return k.api('POST', `/projects/${w.project.id}/repository/commits`, { token, body: { branch: `probe-${serial}`, start_branch: 'main', commit_message: 'probe', actions: [{ action: 'create', file_path: `probe-${serial}.txt`, content: 'probe' }] } });
    },
  },
  {
    ability: 'admin_tag',
    expect: 'nnnnyyyyn',
    request: async (k, w, token, serial) => {
      await ensureDefaultBranch(k, w);
      return k.api('POST', `/projects/${w.project.id}/repository/tags`, { token, body: { tag_name: `probe-${serial}`, ref: 'main' } });
    },
  },
  // Commit statuses (issue 34; GitLab: read with the pipelines by Reporters and readers of a public
  // project, posted by Developers).
  {
    ability: 'read_commit_status',
    expect: { private: 'nnnyyyyyn', internal: 'nyyyyyyyn', public: 'yyyyyyyyn' },
    request: async (k, w, token) => {
      await ensureDefaultBranch(k, w);
      return k.api('GET', `/projects/${w.project.id}/repository/commits/main/statuses`, { token });
    },
  },
  {
    ability: 'create_commit_status',
    expect: 'nnnnyyyyn',
    request: async (k, w, token, serial) => {
      await ensureDefaultBranch(k, w);
      return k.api('POST', `/projects/${w.project.id}/statuses/main`, { token, body: { state: 'success', name: `probe-${serial}` } });
    },
  },
  // CI/CD (issue 39; GitLab: pipelines and jobs read like commit statuses, run, cancelled and retried
  // by Developers, deleted by Owners). Each probe acts on a pipeline of its own. The CI pages
  // (src/ci/pages) declare these same abilities: read_pipeline, create_pipeline, update_build.
  {
    ability: 'read_pipeline',
    expect: { private: 'nnnyyyyyn', internal: 'nyyyyyyyn', public: 'yyyyyyyyn' },
    request: (k, w, token) => k.api('GET', `/projects/${w.project.id}/pipelines`, { token }),
  },
  {
    ability: 'create_pipeline',
    expect: 'nnnnyyyyn',
    request: async (k, w, token) => {
      await ensureCiFile(k, w);
      return k.api('POST', `/projects/${w.project.id}/pipeline`, { token, body: { ref: 'ci' } });
    },
  },
  {
    ability: 'update_build',
    expect: 'nnnnyyyyn',
    request: async (k, w, token, serial) => k.api('POST', `/projects/${w.project.id}/pipelines/${await probePipeline(k, w, serial)}/cancel`, { token }),
  },
  {
    // GitLab's protected_ref rule: on a `main` only Maintainers push and merge to, Developers lose
    // update_build, and so does an administrator who is no member (ProtectedRefAccess#check_access).
    ability: 'update_build (a protected ref)',
    expect: 'nnnnnyynn',
    request: async (k, w, token) => {
      await ensureRefPipelines(k, w);
      const made = await k.api('POST', `/projects/${w.project.id}/pipeline`, { token: tokens.get('owner'), body: { ref: 'main' } });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      return k.api('POST', `/projects/${w.project.id}/pipelines/${made.body.id}/cancel`, { token });
    },
  },
  {
    ability: 'destroy_pipeline',
    expect: 'nnnnnnyyn',
    request: async (k, w, token, serial) => k.api('DELETE', `/projects/${w.project.id}/pipelines/${await probePipeline(k, w, serial)}`, { token }),
  },
  // Pipeline schedules (issue 39; GitLab: read by Reporters, made by Developers).
  {
    ability: 'read_pipeline_schedule',
    expect: 'nnnyyyyyn',
    request: (k, w, token) => k.api('GET', `/projects/${w.project.id}/pipeline_schedules`, { token }),
  },
  {
    ability: 'create_pipeline_schedule',
    expect: 'nnnnyyyyn',
    request: (k, w, token, serial) => k.api('POST', `/projects/${w.project.id}/pipeline_schedules`, { token, body: { description: `probe ${serial}`, ref: 'main', cron: '0 1 * * *' } }),
  },
  // Releases (issue 38; GitLab: read by Guests and readers of the project's repository, made by Developers).
  {
    ability: 'read_release',
    expect: { private: 'nnyyyyyyn', internal: 'nyyyyyyyn', public: 'yyyyyyyyn' },
    request: (k, w, token) => k.api('GET', `/projects/${w.project.id}/releases`, { token }),
  },
  {
    ability: 'create_release',
    expect: 'nnnnyyyyn',
    request: async (k, w, token, serial) => {
      await ensureDefaultBranch(k, w);
      return k.api('POST', `/projects/${w.project.id}/releases`, { token, body: { tag_name: `release-${serial}`, ref: 'main' } });
    },
  },
  // Project snippets (issue 38; GitLab: read by Guests and readers of the project, made by Reporters).
  { ability: 'read_snippet', expect: READ, request: (k, w, token) => k.api('GET', `/projects/${w.project.id}/snippets`, { token }) },
  {
    ability: 'create_snippet',
    expect: 'nnnyyyyyn',
    request: (k, w, token, serial) => k.api('POST', `/projects/${w.project.id}/snippets`, { token, body: { title: `probe ${serial}`, visibility: 'private', content: 'x' } }),
  },
  // Project wikis (issue 38; GitLab: read by Guests and readers of the project, written by Developers).
  { ability: 'read_wiki', expect: READ, request: (k, w, token) => k.api('GET', `/projects/${w.project.id}/wikis`, { token }) },
  {
    ability: 'create_wiki',
    expect: 'nnnnyyyyn',
    request: (k, w, token, serial) => k.api('POST', `/projects/${w.project.id}/wikis`, { token, body: { title: `probe ${serial}`, content: 'x' } }),
  },
  // Editing, moving and deleting projects and groups (issue 15). A refused transfer into a namespace is
  // GitLab's 400 "Failed to transfer project …": counted as refused here.
  { ability: 'admin_project', expect: 'nnnnnyyyn', request: (k, w, token, serial) => k.api('PUT', `/projects/${w.project.id}`, { token, body: { description: `probe ${serial}` } }) },
  // Protected tags are read and written by those who administer the project (authorize_admin_project).
  { ability: 'admin_project (protected tags)', expect: 'nnnnnyyyn', request: (k, w, token) => k.api('GET', `/projects/${w.project.id}/protected_tags`, { token }) },
  // The deploy keys and deploy tokens settings pages declare the same abilities as these API routes.
  { ability: 'admin_project (deploy keys)', expect: 'nnnnnyyyn', request: (k, w, token) => k.api('GET', `/projects/${w.project.id}/deploy_keys`, { token }) },
  { ability: 'admin_project (deploy tokens)', expect: 'nnnnnyyyn', request: (k, w, token) => k.api('GET', `/projects/${w.project.id}/deploy_tokens`, { token }) },
  { ability: 'admin_group (deploy tokens)', expect: 'nnnnnnyyn', request: (k, w, token) => k.api('GET', `/groups/${w.group.id}/deploy_tokens`, { token }) },
  { ability: 'rename_project', expect: 'nnnnnyyyn', request: (k, w, token) => k.api('PUT', `/projects/${w.project.id}`, { token, body: { name: 'app' } }) },
  {
    ability: 'change_namespace',
    expect: 'nnnnnnyyn',
    request: async (k, w, token, serial) => {
      const fresh = await k.createProject(k.root, `moving-${serial}`, { namespace_id: w.group.id, visibility: w.project.visibility });
      const me = await k.api('GET', '/user', { token });
      return k.api('PUT', `/projects/${fresh.id}/transfer`, { token, body: { namespace: me.status === 200 ? me.body.username : 'root' } });
    },
  },
  {
    ability: 'transfer_projects',
    expect: 'nnnnnyyyn',
    request: async (k, w, token, serial) => {
      const made = await k.api('POST', '/projects', { token, body: { name: `carried-${serial}`, path: `carried-${serial}` } });
      if (made.status !== 201) return made;
      const moved = await k.api('PUT', `/projects/${made.body.id}/transfer`, { token, body: { namespace: w.group.id } });
      return moved.status === 400 && /permission/.test(moved.body.message) ? { status: 403, body: moved.body } : moved;
    },
  },
  { ability: 'read_project (star)', expect: PARTICIPATE, request: (k, w, token) => k.api('POST', `/projects/${w.project.id}/star`, { token }) },
  { ability: 'read_group (group projects)', expect: READ, request: (k, w, token) => k.api('GET', `/groups/${w.group.id}/projects`, { token }) },
  { ability: 'admin_group', expect: 'nnnnnnyyn', request: (k, w, token, serial) => k.api('PUT', `/groups/${w.group.id}`, { token, body: { description: `probe ${serial}` } }) },
  {
    ability: 'remove_group',
    expect: 'nnnnnnyyn',
    request: async (k, w, token, serial) => {
      const doomed = await k.api('POST', '/groups', { token: k.root.token, body: { name: `doomed-${serial}`, path: `doomed-${serial}`, parent_id: w.group.id, visibility: w.group.visibility } });
      return k.api('DELETE', `/groups/${doomed.body.id}`, { token });
    },
  },
  // Webhooks and integrations (issue 18; GitLab: project webhooks and integrations are Maintainer+,
  // group webhooks Owner).
  { ability: 'admin_webhook', expect: 'nnnnnyyyn', request: (k, w, token) => k.api('GET', `/projects/${w.project.id}/hooks`, { token }) },
  { ability: 'admin_webhook (group)', expect: 'nnnnnnyyn', request: (k, w, token) => k.api('GET', `/groups/${w.group.id}/hooks`, { token }) },
  { ability: 'admin_integrations', expect: 'nnnnnyyyn', request: (k, w, token) => k.api('GET', `/projects/${w.project.id}/integrations/slack`, { token }) },
  // Merge requests (issue 34; GitLab: Reporters read them in private projects, Developers open and
  // change them, Owners delete them).
  {
    ability: 'read_merge_request',
    expect: { private: 'nnnyyyyyn', internal: 'nyyyyyyyn', public: 'yyyyyyyyn' },
    request: async (k, w, token) => {
      await ensureMergeRequest(k, w);
      return k.api('GET', `/projects/${w.project.id}/merge_requests/1`, { token });
    },
  },
  {
    ability: 'read_merge_request (in the list)',
    expect: { private: 'nnnyyyyyn', internal: 'nyyyyyyyn', public: 'yyyyyyyyn' },
    request: async (k, w, token) => {
      await ensureMergeRequest(k, w);
      return k.api('GET', `/projects/${w.project.id}/merge_requests`, { token });
    },
    allowed: (answer) => Array.isArray(answer.body) && answer.body.some((mr: any) => mr.iid === 1),
  },
  {
    ability: 'create_merge_request_in',
    expect: 'nnnnyyyyn',
    request: async (k, w, token, serial) => {
      await ensureMergeRequest(k, w);
      const made = await k.api('POST', `/projects/${w.project.id}/merge_requests`, { token, body: { source_branch: 'probe', target_branch: 'main', title: `probe ${serial}` } });
      // Closed again, so that the next probe may open the same branches.
      if (made.status === 201) await k.api('PUT', `/projects/${w.project.id}/merge_requests/${made.body.iid}`, { token: k.root.token, body: { state_event: 'close' } });
      return made;
    },
  },
  {
    ability: 'update_merge_request',
    expect: 'nnnnyyyyn',
    request: async (k, w, token, serial) => {
      await ensureMergeRequest(k, w);
      return k.api('PUT', `/projects/${w.project.id}/merge_requests/1`, { token, body: { description: `probe ${serial}` } });
    },
  },
  {
    ability: 'destroy_merge_request',
    expect: 'nnnnnnyyn',
    request: async (k, w, token, serial) => {
      await ensureMergeRequest(k, w);
      const doomed = await k.api('POST', `/projects/${w.project.id}/merge_requests`, { token: k.root.token, body: { source_branch: 'probe', target_branch: 'main', title: `doomed ${serial}` } });
      expect(doomed.status, JSON.stringify(doomed.body)).toBe(201);
      const answer = await k.api('DELETE', `/projects/${w.project.id}/merge_requests/${doomed.body.iid}`, { token });
      if (answer.status !== 204) await k.api('PUT', `/projects/${w.project.id}/merge_requests/${doomed.body.iid}`, { token: k.root.token, body: { state_event: 'close' } });
      return answer;
    },
  },
  // Review (GitLab: whoever reads a merge request comments on it; Developers and its author resolve threads).
  {
    ability: 'create_note (merge request)',
    expect: { private: 'nnnyyyyyn', internal: 'nyyyyyyyn', public: 'nyyyyyyyn' },
    request: async (k, w, token) => {
      await ensureMergeRequest(k, w);
      return k.api('POST', `/projects/${w.project.id}/merge_requests/1/notes`, { token, body: { body: 'probe' } });
    },
  },
  {
    ability: 'resolve_note',
    expect: 'nnnnyyyyn',
    request: async (k, w, token) => {
      await ensureMergeRequest(k, w);
      const thread = await k.api('POST', `/projects/${w.project.id}/merge_requests/1/discussions`, { token: k.root.token, body: { body: 'probe' } });
      expect(thread.status, JSON.stringify(thread.body)).toBe(201);
      return k.api('PUT', `/projects/${w.project.id}/merge_requests/1/discussions/${thread.body.id}`, { token, body: { resolved: true } });
    },
  },
  // Issue boards (issue 36; GitLab: read with the issues by signed-in readers — the boards API
  // authenticates first —, boards and their label lists managed by Reporters).
  { ability: 'read_issue_board', expect: PARTICIPATE, request: (k, w, token) => k.api('GET', `/projects/${w.project.id}/boards`, { token }) },
  { ability: 'admin_issue_board', expect: 'nnnyyyyyn', request: (k, w, token, serial) => k.api('POST', `/projects/${w.project.id}/boards`, { token, body: { name: `probe-${serial}` } }) },
  {
    ability: 'admin_issue_board_list',
    expect: 'nnnyyyyyn',
    request: async (k, w, token, serial) => {
      const board = await k.api('POST', `/projects/${w.project.id}/boards`, { token: k.root.token, body: { name: `lists-${serial}` } });
      const label = await k.api('POST', `/projects/${w.project.id}/labels`, { token: k.root.token, body: { name: `probe-${serial}`, color: '#FF0000' } });
      expect([board.status, label.status]).toEqual([201, 201]);
      return k.api('POST', `/projects/${w.project.id}/boards/${board.body.id}/lists`, { token, body: { label_id: label.body.id } });
    },
  },
  // Label subscriptions (issues 36 and 38): whoever may read the labels, signed in as the labels API wants.
  {
    ability: 'read_label (subscribe to a project label)',
    expect: PARTICIPATE,
    request: async (k, w, token, serial) => {
      const label = await k.api('POST', `/projects/${w.project.id}/labels`, { token: k.root.token, body: { name: `watched-${serial}`, color: '#FF0000' } });
      expect(label.status).toBe(201);
      return k.api('POST', `/projects/${w.project.id}/labels/${label.body.id}/subscribe`, { token });
    },
  },
  {
    ability: 'read_label (subscribe to a group label)',
    expect: PARTICIPATE,
    request: async (k, w, token, serial) => {
      const label = await k.api('POST', `/groups/${w.group.id}/labels`, { token: k.root.token, body: { name: `watched-${serial}`, color: '#FF0000' } });
      expect(label.status).toBe(201);
      return k.api('POST', `/groups/${w.group.id}/labels/${encodeURIComponent(label.body.name)}/subscribe`, { token });
    },
  },
];

/** The merge request probes need `main`, two branches and merge request !1, which the administrator makes once. */
async function ensureMergeRequest(k: TestKiln, w: World): Promise<void> {
  if (w.made.has('merge request')) return;
  await ensureDefaultBranch(k, w);
  for (const branch of ['feature', 'probe']) {
    const made = await k.api('POST', `/projects/${w.project.id}/repository/commits`, { token: k.root.token, body: { branch, start_branch: 'main', commit_message: branch, actions: [{ action: 'create', file_path: `${branch}.txt`, content: branch }] } });
    expect(made.status).toBe(201);
  }
  const opened = await k.api('POST', `/projects/${w.project.id}/merge_requests`, { token: k.root.token, body: { source_branch: 'feature', target_branch: 'main', title: 'probe' } });
  expect(opened.status, JSON.stringify(opened.body)).toBe(201);
  expect(opened.body.iid).toBe(1);
  w.made.add('merge request');
}

/** The repository probes need a default branch to start from: the administrator makes it once. */
async function ensureDefaultBranch(k: TestKiln, w: World): Promise<void> {
  if (w.made.has('main')) return;
  const made = await k.api('POST', `/projects/${w.project.id}/repository/commits`, { token: k.root.token, body: { branch: 'main', commit_message: 'first', actions: [{ action: 'create', file_path: 'README.md', content: 'x' }] } });
  expect(made.status).toBe(201);
  w.made.add('main');
}

/** A branch `ci` whose `.gitlab-ci.yml` has one job. */
async function ensureCiFile(k: TestKiln, w: World): Promise<void> {
  if (w.made.has('ci')) return;
  await ensureDefaultBranch(k, w);
  const made = await k.api('POST', `/projects/${w.project.id}/repository/commits`, {
    token: k.root.token, body: { branch: 'ci', start_branch: 'main', commit_message: 'ci', actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: 'job:\n  script: x\n' }] },
  });
  expect(made.status).toBe(201);
  w.made.add('ci');
}

/**
 * A `.gitlab-ci.yml` on the protected `main` too, and one pipeline of each ref, made by the project's
 * Owner (an administrator who is no member may not push to a protected branch, as in GitLab).
 */
async function ensureRefPipelines(k: TestKiln, w: World): Promise<Record<RefName, { pipeline: number; job: number }>> {
  if (w.refPipelines) return w.refPipelines;
  await ensureCiFile(k, w);
  expect((await k.api('GET', `/projects/${w.project.id}/protected_branches/main`, { token: k.root.token })).status).toBe(200);
  const file = await k.api('POST', `/projects/${w.project.id}/repository/commits`, {
    token: tokens.get('owner'), body: { branch: 'main', commit_message: 'ci', actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: 'job:\n  script: x\n' }] },
  });
  expect(file.status, JSON.stringify(file.body)).toBe(201);
  // A branch of its own: the commit-status probes post to `ci`'s newest pipeline and cancel it.
  expect((await k.api('POST', `/projects/${w.project.id}/repository/branches`, { token: tokens.get('owner'), body: { branch: 'ci-pages', ref: 'ci' } })).status).toBe(201);
  const made: Partial<Record<RefName, { pipeline: number; job: number }>> = {};
  for (const ref of ['main', 'ci-pages'] as const) {
    const pipeline = await k.api('POST', `/projects/${w.project.id}/pipeline`, { token: tokens.get('owner'), body: { ref } });
    expect(pipeline.status, JSON.stringify(pipeline.body)).toBe(201);
    const jobs = await k.api('GET', `/projects/${w.project.id}/pipelines/${pipeline.body.id}/jobs`, { token: tokens.get('owner') });
    made[ref] = { pipeline: pipeline.body.id, job: jobs.body[0].id };
  }
  w.refPipelines = made as Record<RefName, { pipeline: number; job: number }>;
  return w.refPipelines;
}

/** A pipeline of the unprotected branch `ci` (on a protected one, only those who may push or merge there update it). */
async function probePipeline(k: TestKiln, w: World, serial: number): Promise<number> {
  await ensureCiFile(k, w);
  const status = await k.api('POST', `/projects/${w.project.id}/statuses/ci`, { token: k.root.token, body: { state: 'pending', name: `probe-${serial}`, ref: 'ci' } });
  expect(status.status).toBe(201);
  return status.body.pipeline_id;
}

const INSTANCE_PROBES: Probe[] = [
  { ability: 'admin_all_resources', expect: 'nnnnnnnyn', request: (k, _w, token) => k.api('GET', '/group_repository_storage_moves', { token }) },
  { ability: 'log_in', expect: 'nyyyyyyyn', request: (k, _w, token) => k.api('GET', '/user', { token }) },
  { ability: 'admin_all_resources (application settings)', expect: 'nnnnnnnyn', request: (k, _w, token) => k.api('GET', '/application/settings', { token }) },
  { ability: 'log_in (namespaces)', expect: 'nyyyyyyyn', request: (k, _w, token) => k.api('GET', '/namespaces', { token }) },
  { ability: 'log_in (search)', expect: 'nyyyyyyyn', request: (k, _w, token) => k.api('GET', '/search', { token, query: { scope: 'projects', search: 'app' } }) },
  { ability: 'read_instance (markdown)', expect: 'yyyyyyyyn', request: (k, _w, token) => k.api('POST', '/markdown', { token, body: { text: 'x' } }) },
  { ability: 'admin_all_resources (system hooks)', expect: 'nnnnnnnyn', request: (k, _w, token) => k.api('GET', '/hooks', { token }) },
  // To-dos (issue 36): one's own list needs a sign-in; adding a to-do needs to read its target.
  { ability: 'log_in (your to-dos)', expect: 'nyyyyyyyn', request: (k, _w, token) => k.api('GET', '/todos', { token }) },
  { ability: 'read_issue (add a to-do)', expect: PARTICIPATE, request: (k, w, token) => k.api('POST', `/projects/${w.project.id}/issues/1/todo`, { token }) },
  {
    ability: 'read_merge_request (add a to-do)',
    expect: { private: 'nnnyyyyyn', internal: 'nyyyyyyyn', public: 'nyyyyyyyn' },
    request: async (k, w, token) => {
      await ensureMergeRequest(k, w);
      return k.api('POST', `/projects/${w.project.id}/merge_requests/1/todo`, { token });
    },
  },
  // Broadcast messages (issue 36): anyone reads them; only administrators write them.
  { ability: 'read_instance (broadcast messages)', expect: 'yyyyyyyyn', request: (k, _w, token) => k.api('GET', '/broadcast_messages', { token }) },
  {
    ability: 'admin_all_resources (create a broadcast message)',
    expect: 'nnnnnnnyn',
    request: async (k, _w, token) => {
      const made = await k.api('POST', '/broadcast_messages', { token, body: { message: 'probe', starts_at: '2999-01-01T00:00:00Z', ends_at: '2999-01-02T00:00:00Z' } });
      if (made.status === 201) await k.api('DELETE', `/broadcast_messages/${made.body.id}`, { token: k.root.token });
      return made;
    },
  },
  { ability: 'log_in (your SSH keys)', expect: 'nyyyyyyyn', request: (k, _w, token) => k.api('GET', '/user/keys', { token }) },
  // A user's public keys are public (GitLab's GET /users/:id/keys), as their profile is.
  { ability: 'read_users_list (a user\'s SSH keys)', expect: 'yyyyyyyyn', request: (k, _w, token) => k.api('GET', '/users/root/keys', { token }) },
];

/**
 * The admin area's pages, through a browser session of each role: GitLab answers them 404 to every
 * signed-in user but administrators (and asks visitors to sign in), so an ability is refused with 404
 * or a redirect to the sign-in page; the blocked user cannot sign in and is a visitor.
 */
const ADMIN_PAGES = [
  '/admin', '/admin/users', '/admin/users/root', '/admin/projects', '/admin/groups', '/admin/emails', '/admin/repository_storages', '/admin/background_jobs', '/admin/hooks',
  '/admin/application_settings/general', '/admin/application_settings/network', '/admin/application_settings/preferences', '/admin/broadcast_messages',
];

const PAGE_PROBES: Array<{ ability: string; expect: string; path: string }> = ADMIN_PAGES.map((path) => ({ ability: `admin_all_resources (page ${path})`, expect: 'nnnnnnnyn', path }));

/**
 * A group's pages and what Explore lists, for a group (and its project) of each visibility, through a
 * browser session of each role. Allowed is a 200 (for Explore: the group or project is listed);
 * refused a 403 or 404, or for visitors the sign-in page. The blocked user cannot sign in and browses
 * as a visitor, so what is public is open to it here. The CI pages declare the abilities of the API
 * routes that do the same (read_pipeline, create_pipeline, download_code, admin_cicd_variables).
 */
const PAGE_READ = { private: 'nnyyyyyyn', internal: 'nyyyyyyyn', public: 'yyyyyyyyy' };
const GROUP_PAGE_PROBES: Array<{ ability: string; expect: Expectation; path(world: World): string; listed?(world: World, body: string): boolean; prepare?(kiln: TestKiln, world: World): Promise<unknown> }> = [
  { ability: 'admin_group (page: group settings)', expect: 'nnnnnnyyn', path: (w) => `/groups/${w.group.full_path}/-/edit` },
  { ability: 'read_issue_board (page: group board)', expect: PAGE_READ, path: (w) => `/groups/${w.group.full_path}/-/boards` },
  { ability: 'read_group (page: group issues)', expect: PAGE_READ, path: (w) => `/groups/${w.group.full_path}/-/issues` },
  { ability: 'read_group (page: listed in Explore)', expect: PAGE_READ, path: (w) => `/explore/groups?name=${w.group.path}`, listed: (w, body) => body.includes(`data-group="${w.group.full_path}"`) },
  { ability: 'read_project (page: listed in Explore)', expect: PAGE_READ, path: (w) => `/explore/projects?name=${w.project.path}`, listed: (w, body) => body.includes(`data-project="${w.project.path_with_namespace}"`) },
  { ability: 'read_pipeline (page: pipelines)', expect: { private: 'nnnyyyyyn', internal: 'nyyyyyyyn', public: 'yyyyyyyyy' }, path: (w) => `/${w.project.path_with_namespace}/-/pipelines` },
  { ability: 'read_pipeline (page: jobs)', expect: { private: 'nnnyyyyyn', internal: 'nyyyyyyyn', public: 'yyyyyyyyy' }, path: (w) => `/${w.project.path_with_namespace}/-/jobs` },
  { ability: 'create_pipeline (page: run pipeline)', expect: 'nnnnyyyyn', path: (w) => `/${w.project.path_with_namespace}/-/pipelines/new` },
  { ability: 'download_code (page: CI lint)', expect: { private: 'nnnyyyyyn', internal: 'nyyyyyyyn', public: 'yyyyyyyyy' }, path: (w) => `/${w.project.path_with_namespace}/-/ci/lint` },
  // The CI pages offer Cancel (and Retry, Play) only to whom the API's routes let do it: update_build,
  // and on the protected `main` only to those who may push or merge there (`ci-pages` is not protected).
  ...(['main', 'ci-pages'] as const).flatMap((ref) => {
    const expect = ref === 'main' ? 'nnnnnyynn' : 'nnnnyyyyn';
    const prepare = (k: TestKiln, w: World) => ensureRefPipelines(k, w);
    return [
      { ability: `update_build (page: Cancel on a pipeline of ${ref})`, expect, prepare, path: (w: World) => `/${w.project.path_with_namespace}/-/pipelines/${w.refPipelines![ref].pipeline}`, listed: (w: World, body: string) => body.includes(`/-/pipelines/${w.refPipelines![ref].pipeline}/cancel"`) },
      { ability: `update_build (page: Cancel on a job of ${ref})`, expect, prepare, path: (w: World) => `/${w.project.path_with_namespace}/-/jobs/${w.refPipelines![ref].job}`, listed: (w: World, body: string) => body.includes(`/-/jobs/${w.refPipelines![ref].job}/cancel"`) },
    ];
  }),
  { ability: 'admin_cicd_variables (page: CI/CD settings)', expect: 'nnnnnyyyn', path: (w) => `/${w.project.path_with_namespace}/-/settings/ci_cd` },
  // Labels: the list for whoever reads the project or group, the forms for Reporters and up (admin_label).
  { ability: 'read_label (page: project labels)', expect: PAGE_READ, path: (w) => `/${w.project.path_with_namespace}/-/labels` },
  { ability: 'read_label (page: group labels)', expect: PAGE_READ, path: (w) => `/groups/${w.group.full_path}/-/labels` },
  { ability: 'admin_label (page: new project label)', expect: 'nnnyyyyyn', path: (w) => `/${w.project.path_with_namespace}/-/labels/new` },
  { ability: 'admin_label (page: new group label)', expect: 'nnnyyyyyn', path: (w) => `/groups/${w.group.full_path}/-/labels/new` },
  // The dashboard lists the reader's own groups and their milestones: membership, whatever the
  // visibility, and not what an administrator could read (GitLab's Dashboard controllers).
  // Filtered by the group's path: the matrix's users are members of more groups than a page holds.
  { ability: 'membership (page: your groups)', expect: 'nnyyyyynn', path: (w) => `/dashboard/groups?filter=${encodeURIComponent(w.group.full_path)}`, listed: (w, body) => body.includes(`data-group="${w.group.full_path}"`) },
  {
    ability: 'membership (page: your milestones)', expect: 'nnyyyyynn', prepare: ensureGroupMilestone, path: () => '/dashboard/milestones',
    listed: (w, body) => body.includes(`href="/groups/${w.group.full_path}/-/milestones/`),
  },
];

async function ensureGroupMilestone(k: TestKiln, w: World): Promise<void> {
  const listed = await k.api('GET', `/groups/${w.group.id}/milestones`, { token: k.root.token });
  if (listed.body.length === 0) expect((await k.api('POST', `/groups/${w.group.id}/milestones`, { token: k.root.token, body: { title: 'matrix' } })).status).toBe(201);
}

function expected(probe: { expect: Expectation }, visibility: Visibility, role: Role): boolean {
  const row = typeof probe.expect === 'string' ? probe.expect : probe.expect[visibility];
  return row[ROLES.indexOf(role)] === 'y';
}

function classify(probe: Probe, answer: { status: number; body: any }): boolean {
  if (answer.status >= 200 && answer.status < 300) return probe.allowed ? probe.allowed(answer) : true;
  if ([401, 403, 404].includes(answer.status)) return false;
  throw new Error(`${probe.ability}: unexpected ${answer.status} ${JSON.stringify(answer.body)}`);
}

let kiln: TestKiln;
const tokens = new Map<Role, string | undefined>();
const passwords = new Map<Role, [string, string]>();
const sessions = new Map<Role, WebSession>();

/** A browser session of the role: signed in, or a visitor's (anonymous, and the blocked user). */
async function sessionOf(role: Role): Promise<WebSession> {
  let session = sessions.get(role);
  if (session) return session;
  session = new WebSession(kiln);
  const credentials = passwords.get(role);
  if (credentials) await session.signIn(...credentials).catch(() => undefined);
  sessions.set(role, session);
  return session;
}
const worlds = new Map<Visibility, World>();
let serial = 0;

beforeAll(async () => {
  kiln = await testKiln();
  const users: Partial<Record<Role, TestUser>> = {};
  for (const role of ROLES) {
    if (role === 'anonymous') continue;
    users[role] = role === 'admin' ? kiln.root : await kiln.createUser(`matrix-${role}`);
  }
  for (const role of ROLES) tokens.set(role, users[role]?.token);
  for (const role of ROLES) if (users[role]) passwords.set(role, [users[role].username, users[role].password]);
  const levels: Partial<Record<Role, number>> = { guest: ACCESS.guest, reporter: ACCESS.reporter, developer: ACCESS.developer, maintainer: ACCESS.maintainer, blocked: ACCESS.developer };
  for (const visibility of VISIBILITIES) {
    // The owner creates the group (becoming its Owner); everyone else is a member of the group, so
    // the project's levels are inherited, as most GitLab teams set them up.
    const group = await kiln.createGroup(users.owner!, `matrix-${visibility}`, { visibility });
    for (const [role, level] of Object.entries(levels)) await kiln.addMember(users.owner!, 'groups', group.id, users[role as Role]!, level);
    const project = await kiln.createProject(users.owner!, 'app', { namespace_id: group.id, visibility });
    const spareProjectMember = await kiln.createUser(`spare-p-${visibility}`);
    const spareGroupMember = await kiln.createUser(`spare-g-${visibility}`);
    await kiln.addMember(users.owner!, 'projects', project.id, spareProjectMember, ACCESS.guest);
    await kiln.addMember(users.owner!, 'groups', group.id, spareGroupMember, ACCESS.guest);
    const issue = await kiln.api('POST', `/projects/${project.id}/issues`, { token: users.owner!.token, body: { title: 'open' } });
    const secret = await kiln.api('POST', `/projects/${project.id}/issues`, { token: users.owner!.token, body: { title: 'secret', confidential: true } });
    expect([issue.body.iid, secret.body.iid]).toEqual([1, 2]);
    const settings = await kiln.api('PUT', `/projects/${project.id}/error_tracking/settings`, {
      token: users.owner!.token,
      body: { active: true, api_url: 'https://tracker.example.com/api/0/projects/org/app/', token: 'tracker-token', project_name: 'app' },
    });
    expect(settings.status, JSON.stringify(settings.body)).toBeLessThan(300);
    worlds.set(visibility, { group, project, spareProjectMember, spareGroupMember, made: new Set() });
  }
  const blocked = await kiln.api('POST', `/users/${users.blocked!.id}/block`, { token: kiln.root.token });
  expect(blocked.status).toBe(201);
});

afterAll(async () => {
  await kiln?.close();
});

describe('the permission matrix (role × visibility × ability → allowed), through the HTTP API', () => {
  for (const visibility of VISIBILITIES) {
    describe(`on a ${visibility} project and group`, () => {
      for (const probe of PROBES) {
        for (const role of ROLES) {
          const allowed = expected(probe, visibility, role);
          it(`${probe.ability}: ${role} is ${allowed ? 'allowed' : 'refused'}`, async () => {
            serial += 1;
            const answer = await probe.request(kiln, worlds.get(visibility)!, tokens.get(role), serial);
            expect(classify(probe, answer), `${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`).toBe(allowed);
          });
        }
      }
    });
  }

  describe('on the instance', () => {
    for (const probe of INSTANCE_PROBES) {
      for (const role of ROLES) {
        const allowed = expected(probe, 'private', role);
        it(`${probe.ability}: ${role} is ${allowed ? 'allowed' : 'refused'}`, async () => {
          const answer = await probe.request(kiln, worlds.get('private')!, tokens.get(role), 0);
          expect(classify(probe, answer), `${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`).toBe(allowed);
        });
      }
    }
  });

  describe('on the admin area\'s pages', () => {
    for (const probe of PAGE_PROBES) {
      for (const role of ROLES) {
        const allowed = expected(probe, 'private', role);
        it(`${probe.ability}: ${role} is ${allowed ? 'allowed' : 'refused'}`, async () => {
          const answer = await (await sessionOf(role)).get(probe.path);
          if (allowed) expect(answer.statusCode).toBe(200);
          else if (role === 'anonymous' || role === 'blocked') expect(answer.headers.location ?? '').toMatch(/^\/users\/sign_in\?return_to=/);
          else expect(answer.statusCode).toBe(404);
        });
      }
    }
  });

  for (const visibility of VISIBILITIES) {
    describe(`on the pages of a ${visibility} group`, () => {
      for (const probe of GROUP_PAGE_PROBES) {
        for (const role of ROLES) {
          const allowed = expected(probe, visibility, role);
          it(`${probe.ability}: ${role} is ${allowed ? 'allowed' : 'refused'}`, async () => {
            const world = worlds.get(visibility)!;
            await probe.prepare?.(kiln, world);
            const answer = await (await sessionOf(role)).get(probe.path(world));
            const signInAsked = answer.statusCode === 302 && (answer.headers.location ?? '').startsWith('/users/sign_in?return_to=');
            expect([200, 403, 404].includes(answer.statusCode) || signInAsked, `${answer.statusCode}`).toBe(true);
            const shown = answer.statusCode === 200 && (probe.listed ? probe.listed(world, answer.body) : true);
            expect(shown).toBe(allowed);
          });
        }
      }
    });
  }
});
