// Configuration as code (issue 38): every project and group setting GitLab documents, applied with
// PUT, read back equal, applied again without changing anything (no write: the row's version stays);
// wrong values are 400s naming the attribute; deprecated names and the group's default branch act.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { GROUP_STORED_SETTINGS, PROJECT_STORED_SETTINGS } from '../../src/accounts/settings-tables.js';

let kiln: TestKiln;
let alice: TestUser;
let configurator: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  alice = await kiln.createUser('alice');
  configurator = await kiln.createUser('configurator', { admin: true });
});
afterAll(async () => {
  await kiln.close();
});

/** A value of the entity's type other than GitLab's default, for a setting of the table. */
function otherValue(name: string, fallback: unknown, values?: readonly string[]): unknown {
  if (values) return values.find((value) => value !== fallback);
  if (typeof fallback === 'boolean' || fallback === null && /enabled|disabled|lock|require/.test(name)) return fallback !== true;
  if (typeof fallback === 'number' || /seconds|size|limit/.test(name)) return typeof fallback === 'number' ? fallback + 600 : 86_400 * 3;
  if (Array.isArray(fallback)) return ['project_path', 'ref'];
  return `value of ${name}`;
}

const PROJECT_CONFIG: Record<string, unknown> = {
  ...Object.fromEntries(Object.entries(PROJECT_STORED_SETTINGS).filter(([, entry]) => !entry.attributes).map(([name, entry]) => [name, otherValue(name, entry.fallback, entry.rule.values)])),
  ci_default_git_depth: 50,
  container_expiration_policy_attributes: { cadence: '7d', enabled: true, keep_n: 5, older_than: '14d', name_regex: 'v.*', name_regex_keep: 'keep-.*' },
  // Settings with columns of their own, and the ones merge requests obey.
  description: 'Managed by code', merge_method: 'ff', squash_option: 'always', only_allow_merge_if_pipeline_succeeds: true,
  remove_source_branch_after_merge: false, issues_access_level: 'private', merge_requests_access_level: 'private', topics: ['infra'],
  mr_default_target_self: true, approvals_before_merge: 1,
};

/** Settings only an administrator may change (GitLab drops them from an owner's PUT). */
const ADMIN_ONLY_PROJECT_SETTINGS = ['max_artifacts_size'];
const OWNER_PROJECT_CONFIG = Object.fromEntries(Object.entries(PROJECT_CONFIG).filter(([name]) => !ADMIN_ONLY_PROJECT_SETTINGS.includes(name)));

const GROUP_CONFIG: Record<string, unknown> = {
  ...Object.fromEntries(Object.entries(GROUP_STORED_SETTINGS).filter(([, entry]) => !entry.attributes).map(([name, entry]) => [name, otherValue(name, entry.fallback, entry.rule.values)])),
  default_branch_protection: 3,
  two_factor_grace_period: 24,
  default_branch: 'trunk',
  default_branch_protection_defaults: { allowed_to_push: [{ access_level: 30 }], allow_force_push: true, allowed_to_merge: [{ access_level: 40 }], developer_can_initial_push: true },
  description: 'Group managed by code',
};

/** What GET shows for a configuration: hashes under their entity names. */
function shown(config: Record<string, unknown>): Record<string, unknown> {
  const { container_expiration_policy_attributes: policy, ...rest } = config;
  return policy ? { ...rest, container_expiration_policy: expect.objectContaining(policy as object) } : rest;
}

async function version(table: 'projects' | 'namespaces', id: number): Promise<number> {
  const row = await kiln.deps.db.selectFrom(table).select('version').where('id', '=', id).executeTakeFirstOrThrow();
  return Number(row.version);
}

describe('configuration as code', () => {
  it('applies every project setting, reads it back equal, and a second apply changes nothing', async () => {
    const project = await kiln.createProject(alice, 'managed');
    const first = await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: OWNER_PROJECT_CONFIG });
    expect(first.status).toBe(200);
    const read = await kiln.api('GET', `/projects/${project.id}`, { token: alice.token });
    expect(read.body).toMatchObject(shown(OWNER_PROJECT_CONFIG));
    expect(read.body).toMatchObject({ wiki_enabled: false, jobs_enabled: false, emails_disabled: true, public_jobs: false });
    const before = await version('projects', project.id);
    const again = await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: OWNER_PROJECT_CONFIG });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await version('projects', project.id)).toBe(before);
    expect((await kiln.api('GET', `/projects/${project.id}`, { token: alice.token })).body).toEqual(read.body);
  });

  it('applies the administrator-only settings too when an administrator applies the configuration', async () => {
    const project = await kiln.createProject(alice, 'managed-by-admin');
    const byOwner = await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: PROJECT_CONFIG });
    expect([byOwner.status, byOwner.body.max_artifacts_size]).toEqual([200, null]);
    const byAdmin = await kiln.api('PUT', `/projects/${project.id}`, { token: configurator.token, body: PROJECT_CONFIG });
    expect(byAdmin.status).toBe(200);
    expect((await kiln.api('GET', `/projects/${project.id}`, { token: alice.token })).body).toMatchObject(shown(PROJECT_CONFIG));
  });

  it('applies every group setting the same way; the group default branch names new projects', async () => {
    const group = await kiln.createGroup(alice, 'managed-group');
    expect((await kiln.api('PUT', `/groups/${group.id}`, { token: alice.token, body: GROUP_CONFIG })).status).toBe(200);
    const read = await kiln.api('GET', `/groups/${group.id}`, { token: alice.token });
    expect(read.body).toMatchObject(GROUP_CONFIG);
    const before = await version('namespaces', group.id);
    expect((await kiln.api('PUT', `/groups/${group.id}`, { token: alice.token, body: GROUP_CONFIG })).body).toEqual(read.body);
    expect(await version('namespaces', group.id)).toBe(before);
    const project = await kiln.createProject(alice, 'in-managed', { namespace_id: group.id });
    expect(project.default_branch).toBe('trunk');
  });

  it('shows GitLab defaults for a new project and takes deprecated names', async () => {
    const project = await kiln.createProject(alice, 'defaults');
    expect(project).toMatchObject({ wiki_access_level: 'enabled', build_timeout: 3600, ci_config_path: null, request_access_enabled: true, lfs_enabled: true, container_expiration_policy: { cadence: '1d', keep_n: 10 } });
    const changed = await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { wiki_enabled: false, snippets_enabled: 'false', public_builds: false } });
    expect(changed.body).toMatchObject({ wiki_access_level: 'disabled', wiki_enabled: false, snippets_access_level: 'disabled', public_jobs: false });
    // The current name wins over its deprecated alias.
    expect((await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body: { wiki_enabled: false, wiki_access_level: 'private' } })).body.wiki_access_level).toBe('private');
  });

  it('refuses wrong values with a 400 naming the attribute, and keeps what was there', async () => {
    const project = await kiln.createProject(alice, 'wrong-values');
    const cases: Array<[Record<string, unknown>, unknown]> = [
      [{ wiki_access_level: 'sometimes' }, { error: 'wiki_access_level does not have a valid value' }],
      [{ build_timeout: 'soon' }, { error: 'build_timeout is invalid' }],
      [{ build_timeout: 10 }, { message: { build_timeout: ['must be greater than or equal to 600'] } }],
      [{ ci_config_path: 'x'.repeat(256) }, { message: { ci_config_path: ['is too long (maximum is 255 characters)'] } }],
      [{ container_expiration_policy_attributes: 'daily' }, { error: 'container_expiration_policy_attributes is invalid' }],
      [{ container_expiration_policy_attributes: { keep_n: 'many', cadence: 'hourly' } }, { error: 'container_expiration_policy_attributes[cadence] does not have a valid value, container_expiration_policy_attributes[keep_n] is invalid' }],
      [{ lfs_enabled: { nested: true } }, { error: 'lfs_enabled is invalid' }],
    ];
    for (const [body, error] of cases) {
      const answer = await kiln.api('PUT', `/projects/${project.id}`, { token: alice.token, body });
      expect([answer.status, answer.body]).toEqual([400, error]);
    }
    expect((await kiln.api('GET', `/projects/${project.id}`, { token: alice.token })).body).toMatchObject({ wiki_access_level: 'enabled', build_timeout: 3600, ci_config_path: null, lfs_enabled: true });
    const group = await kiln.createGroup(alice, 'wrong-group');
    expect(await kiln.api('PUT', `/groups/${group.id}`, { token: alice.token, body: { default_branch_protection: 9 } })).toMatchObject({ status: 400, body: { message: { default_branch_protection: ['is not included in the list'] } } });
    expect(await kiln.api('PUT', `/groups/${group.id}`, { token: alice.token, body: { project_creation_level: 'everyone' } })).toMatchObject({ status: 400, body: { error: 'project_creation_level does not have a valid value' } });
  });

  it('takes every setting on POST /projects but the update-only artifact limit, as PUT would store it', async () => {
    const created = await kiln.api('POST', '/projects', { token: alice.token, body: { name: 'born-managed', ...PROJECT_CONFIG } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject(shown(OWNER_PROJECT_CONFIG));
    expect(created.body.max_artifacts_size).toBeNull();
    const before = await version('projects', created.body.id);
    expect((await kiln.api('PUT', `/projects/${created.body.id}`, { token: alice.token, body: OWNER_PROJECT_CONFIG })).status).toBe(200);
    expect(await version('projects', created.body.id)).toBe(before);
    expect(await kiln.api('POST', '/projects', { token: alice.token, body: { name: 'wrong', build_timeout: 10 } })).toMatchObject({ status: 400, body: { message: { build_timeout: ['must be greater than or equal to 600'] } } });
    expect(await kiln.api('POST', '/projects', { token: alice.token, body: { name: 'mirrored', mirror: true } })).toMatchObject({ status: 400, body: { error: 'mirror is not supported' } });
    expect(await kiln.api('POST', '/projects', { token: alice.token, body: { name: 'bad-branch', default_branch: 'a..b', initialize_with_readme: true } })).toMatchObject({ status: 400, body: { message: { default_branch: ['is invalid'] } } });
    expect((await kiln.api('GET', '/projects/alice%2Fwrong', { token: alice.token })).status).toBe(404);
  });

  it('takes every setting on POST /groups, and on POST /projects/user/:user_id for an administrator', async () => {
    const group = await kiln.api('POST', '/groups', { token: alice.token, body: { name: 'born-group', path: 'born-group', ...GROUP_CONFIG } });
    expect(group.status).toBe(201);
    expect(group.body).toMatchObject(GROUP_CONFIG);
    const before = await version('namespaces', group.body.id);
    expect((await kiln.api('PUT', `/groups/${group.body.id}`, { token: alice.token, body: GROUP_CONFIG })).status).toBe(200);
    expect(await version('namespaces', group.body.id)).toBe(before);
    const admin = await kiln.createUser('automation-admin', { admin: true });
    const forAlice = await kiln.api('POST', `/projects/user/${alice.id}`, { token: admin.token, body: { name: 'given', wiki_access_level: 'disabled', initialize_with_readme: true, default_branch: 'trunk' } });
    expect(forAlice.status).toBe(201);
    expect((await kiln.api('POST', '/projects', { token: admin.token, body: { name: 'limited', max_artifacts_size: 'not a number' } })).body.max_artifacts_size).toBeNull();
    expect(forAlice.body).toMatchObject({ path_with_namespace: 'alice/given', wiki_access_level: 'disabled', default_branch: 'trunk' });
    expect((await kiln.api('GET', `/projects/${forAlice.body.id}/repository/branches/trunk`, { token: alice.token })).body.commit.author_name).toBe('User alice');
    expect((await kiln.api('POST', `/projects/user/${admin.id}`, { token: alice.token, body: { name: 'taken' } })).status).toBe(403);
  });
});
