// The project's merge request settings (issue 34) through PUT /projects/:id and GET /projects/:id:
// GitLab's defaults, every setting stored and answered back, a wrong value refused with a 400 naming
// it, and merging obeying what was set through the API (threads must be resolved, the merge method,
// merge requests disabled).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';
import { branchWith, create, openMergeRequest, seedRepository } from './merge-requests-helpers.js';

let kiln: TestKiln;
let w: RepositoryWorld;

const put = (body: Record<string, unknown>, token = w.owner.token) => kiln.api('PUT', `/projects/${w.project.id}`, { token, body });

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  await seedRepository(kiln, w.owner, w.project.id);
});

afterAll(async () => {
  await kiln?.close();
});

describe('merge request settings of a project', () => {
  it("start at GitLab's defaults", async () => {
    const project = await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}`);
    expect(project).toMatchObject({
      merge_requests_enabled: true,
      merge_requests_access_level: 'enabled',
      merge_method: 'merge',
      squash_option: 'default_off',
      only_allow_merge_if_pipeline_succeeds: false,
      allow_merge_on_skipped_pipeline: false,
      only_allow_merge_if_all_discussions_are_resolved: false,
      resolve_outdated_diff_discussions: false,
      remove_source_branch_after_merge: true,
      printing_merge_request_link_enabled: true,
      autoclose_referenced_issues: true,
      merge_commit_template: null,
      squash_commit_template: null,
      suggestion_commit_message: null,
      approvals_before_merge: 0,
      reset_approvals_on_push: true,
      merge_requests_author_approval: false,
      merge_requests_disable_committers_approval: false,
    });
  });

  it('are stored as sent and answered back by PUT and GET, form strings and JSON alike', async () => {
    const sent = {
      merge_method: 'rebase_merge',
      squash_option: 'always',
      only_allow_merge_if_pipeline_succeeds: true,
      allow_merge_on_skipped_pipeline: true,
      only_allow_merge_if_all_discussions_are_resolved: true,
      resolve_outdated_diff_discussions: true,
      remove_source_branch_after_merge: false,
      printing_merge_request_link_enabled: false,
      autoclose_referenced_issues: false,
      merge_commit_template: 'Merge %{source_branch}\n\n%{title}',
      squash_commit_template: '%{title} (%{reference})',
      suggestion_commit_message: 'Apply %{suggestions_count} suggestion(s)',
      approvals_before_merge: 2,
      reset_approvals_on_push: false,
      merge_requests_author_approval: true,
      merge_requests_disable_committers_approval: true,
      merge_requests_access_level: 'private',
    };
    const { status, body } = await put(sent);
    expect(status).toBe(200);
    const read = await kiln.apiAs(w.owner, 'GET', `/projects/${w.project.id}`);
    for (const answer of [body, read]) expect(answer).toMatchObject({ ...sent, merge_requests_enabled: true });
    // Form-encoded booleans, the deprecated merge_requests_enabled, and blank templates clear them.
    const form = await kiln.api('PUT', `/projects/${w.project.id}`, {
      token: w.owner.token,
      form: { only_allow_merge_if_pipeline_succeeds: 'false', merge_requests_enabled: 'false', merge_commit_template: '', squash_commit_template: '', suggestion_commit_message: '' },
    });
    expect(form.status).toBe(200);
    expect(form.body).toMatchObject({ only_allow_merge_if_pipeline_succeeds: false, merge_requests_enabled: false, merge_requests_access_level: 'disabled', merge_commit_template: null, squash_commit_template: null, suggestion_commit_message: null });
    // Back to the defaults for the tests below.
    const reset = await put({ merge_method: 'merge', squash_option: 'default_off', only_allow_merge_if_pipeline_succeeds: false, allow_merge_on_skipped_pipeline: false, only_allow_merge_if_all_discussions_are_resolved: false, resolve_outdated_diff_discussions: false, remove_source_branch_after_merge: true, printing_merge_request_link_enabled: true, autoclose_referenced_issues: true, approvals_before_merge: 0, reset_approvals_on_push: true, merge_requests_author_approval: false, merge_requests_disable_committers_approval: false, merge_requests_access_level: 'enabled' });
    expect(reset.status).toBe(200);
  });

  it('refuses a wrong value with a 400 naming the parameter, and changes nothing', async () => {
    const refused = async (body: Record<string, unknown>) => {
      const response = await put({ description: 'should not stick', ...body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      return response.body;
    };
    expect(await refused({ merge_method: 'octopus' })).toEqual({ error: 'merge_method does not have a valid value' });
    expect(await refused({ squash_option: 'sometimes' })).toEqual({ error: 'squash_option does not have a valid value' });
    expect(await refused({ merge_requests_access_level: 'public' })).toEqual({ error: 'merge_requests_access_level does not have a valid value' });
    expect(await refused({ only_allow_merge_if_pipeline_succeeds: 'maybe' })).toEqual({ error: 'only_allow_merge_if_pipeline_succeeds is invalid' });
    expect(await refused({ merge_requests_enabled: 'perhaps' })).toEqual({ error: 'merge_requests_enabled is invalid' });
    expect(await refused({ approvals_before_merge: 'two' })).toEqual({ error: 'approvals_before_merge is invalid' });
    expect(await refused({ approvals_before_merge: -1 })).toEqual({ message: { approvals_before_merge: ['must be greater than or equal to 0'] } });
    expect(await refused({ merge_commit_template: 'x'.repeat(501) })).toEqual({ message: { merge_commit_template: ['is too long (maximum is 500 characters)'] } });
    expect(await refused({ suggestion_commit_message: 'x'.repeat(256) })).toEqual({ message: { suggestion_commit_message: ['is too long (maximum is 255 characters)'] } });
    expect(await refused({ merge_commit_template: { nested: true } })).toEqual({ error: 'merge_commit_template is invalid' });
    const read = await kiln.apiAs(w.owner, 'GET', `/projects/${w.project.id}`);
    expect(read).toMatchObject({ description: '', merge_method: 'merge', approvals_before_merge: 0, merge_commit_template: null });
  });

  it('may be changed by maintainers only', async () => {
    expect((await put({ merge_method: 'ff' }, w.developer.token)).status).toBe(403);
    expect((await put({ merge_method: 'merge' }, w.maintainer.token)).status).toBe(200);
  });
});

describe('merging obeys the settings set through the API', () => {
  it('only_allow_merge_if_all_discussions_are_resolved: an open thread blocks the merge until resolved', async () => {
    await branchWith(kiln, w.developer, w.project.id, 'threads', [create('threads.txt', 'one\n')]);
    const mr = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'threads' });
    await kiln.worker.drain();
    const base = `/projects/${w.project.id}/merge_requests/${mr.iid}`;
    const thread = await kiln.apiAs(w.reporter, 'POST', `${base}/discussions`, { body: 'Why?' });
    expect((await put({ only_allow_merge_if_all_discussions_are_resolved: true })).status).toBe(200);
    const blocked = await kiln.apiAs(w.developer, 'GET', base);
    expect(blocked).toMatchObject({ detailed_merge_status: 'discussions_not_resolved', blocking_discussions_resolved: false });
    expect((await kiln.api('PUT', `${base}/merge`, { token: w.maintainer.token, body: {} })).status).toBe(405);
    // The setting off again: the same thread no longer blocks.
    expect((await put({ only_allow_merge_if_all_discussions_are_resolved: false })).status).toBe(200);
    expect(await kiln.apiAs(w.developer, 'GET', base)).toMatchObject({ detailed_merge_status: 'mergeable', blocking_discussions_resolved: true });
    expect((await put({ only_allow_merge_if_all_discussions_are_resolved: true })).status).toBe(200);
    await kiln.api('PUT', `${base}/discussions/${thread.id}`, { token: w.developer.token, body: { resolved: true } });
    const merged = await kiln.api('PUT', `${base}/merge`, { token: w.maintainer.token, body: {} });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(merged.body.state).toBe('merged');
    await put({ only_allow_merge_if_all_discussions_are_resolved: false });
  });

  it('merge_method ff: the merge fast-forwards (no merge commit)', async () => {
    expect((await put({ merge_method: 'ff' })).status).toBe(200);
    await branchWith(kiln, w.developer, w.project.id, 'linear', [create('linear.txt', 'one\n')]);
    const mr = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'linear' });
    await kiln.worker.drain();
    const merged = await kiln.api('PUT', `/projects/${w.project.id}/merge_requests/${mr.iid}/merge`, { token: w.maintainer.token, body: {} });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(merged.body).toMatchObject({ state: 'merged', merge_commit_sha: null, sha: mr.sha });
    const main = await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/repository/branches/main`);
    expect(main.commit.id).toBe(mr.sha);
    await put({ merge_method: 'merge' });
  });

  it("merge_commit_template: GitLab's variables name the merge request's author and the merger", { timeout: 60_000 }, async () => {
    expect((await put({ merge_commit_template: '%{title}\n\nBy %{merge_request_author}, merged by %{merged_by}' })).status).toBe(200);
    await branchWith(kiln, w.developer, w.project.id, 'templated', [create('templated.txt', 'one\n')]);
    const mr = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'templated', title: 'Templated change' });
    await kiln.worker.drain();
    const merged = await kiln.api('PUT', `/projects/${w.project.id}/merge_requests/${mr.iid}/merge`, { token: w.maintainer.token, body: {} });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    const person = async (id: number) => {
      const user = await kiln.deps.db.selectFrom('users').select(['name', 'email']).where('id', '=', id).executeTakeFirstOrThrow();
      return `${user.name} <${user.email}>`;
    };
    const commit = await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/repository/commits/${merged.body.merge_commit_sha}`);
    expect(commit.message).toBe(`Templated change\n\nBy ${await person(w.developer.id)}, merged by ${await person(w.maintainer.id)}\n`);
    await put({ merge_commit_template: null });
  });

  it('squash_option always squashes, default_on turns squash on for new merge requests', async () => {
    expect((await put({ squash_option: 'default_on' })).status).toBe(200);
    await branchWith(kiln, w.developer, w.project.id, 'squashy', [create('squashy.txt', 'one\n')]);
    const mr = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: 'squashy' });
    expect(mr.squash).toBe(true);
    expect((await put({ squash_option: 'never' })).status).toBe(200);
    expect((await kiln.apiAs(w.developer, 'GET', `/projects/${w.project.id}/merge_requests/${mr.iid}`)).squash_on_merge).toBe(false);
    await put({ squash_option: 'default_off' });
  });

  it('merge_requests_access_level disabled: no new merge request, and none to read', async () => {
    await branchWith(kiln, w.developer, w.project.id, 'closed-door', [create('door.txt', 'one\n')]);
    expect((await put({ merge_requests_access_level: 'disabled' })).status).toBe(200);
    const refused = await kiln.api('POST', `/projects/${w.project.id}/merge_requests`, { token: w.developer.token, body: { source_branch: 'closed-door', target_branch: 'main', title: 'No' } });
    expect(refused.status).not.toBe(201);
    expect((await kiln.api('GET', `/projects/${w.project.id}/merge_requests`, { token: w.developer.token })).status).toBe(403);
    await put({ merge_requests_access_level: 'enabled' });
    expect((await kiln.api('GET', `/projects/${w.project.id}/merge_requests`, { token: w.developer.token })).status).toBe(200);
  });
});
