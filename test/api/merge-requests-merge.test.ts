// Merging on the server (issue 34): new versions on push, the diff endpoints, each merge method with
// and without squash (a fresh clone shows the history GitLab would make), the sha guard, protected
// branches, conflicts, approvals, the rebase endpoint and two merges racing, on SQLite and PostgreSQL.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln } from '../helpers/kiln.js';
import { repositoryWorld, type RepositoryWorld } from './repository-api-driver.js';
import { branchWith, create, openMergeRequest, seedRepository, update } from './merge-requests-helpers.js';
import { readableRepository } from '../../src/repositories/api.js';
import { syncClosingIssues } from '../../src/merge-requests/closing-issues.js';
import { findMergeRequestById } from '../../src/merge-requests/finder.js';

let kiln: TestKiln;
let w: RepositoryWorld;
let repoPath: string;

async function setProject(values: Record<string, unknown>): Promise<void> {
  await kiln.deps.db.updateTable('projects').set(values as never).where('id', '=', w.project.id).execute();
}

/** The first-parent history of `main` in a fresh clone: subject and parent count of each commit. */
function cloneHistory(): Array<{ subject: string; parents: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'kiln-clone-'));
  try {
    execFileSync('git', ['clone', '--quiet', repoPath, join(dir, 'c')], { env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } });
    const log = execFileSync('git', ['-C', join(dir, 'c'), 'log', '--first-parent', '--format=%s%x09%P', 'origin/main']).toString().trim();
    return log.split('\n').map((line) => {
      const [subject, parents] = line.split('\t');
      return { subject, parents: (parents ?? '').split(' ').filter(Boolean).length };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function mergeRequestFor(branch: string, actions: Parameters<typeof branchWith>[4], body: Record<string, unknown> = {}): Promise<any> {
  await branchWith(kiln, w.developer, w.project.id, branch, actions, `${branch}: change`);
  const mr = await openMergeRequest(kiln, w.developer, w.project.id, { source_branch: branch, title: `Merge ${branch}`, ...body });
  await kiln.worker.drain();
  return mr;
}

const merge = (iid: number, body: Record<string, unknown> = {}, token = w.maintainer.token) => kiln.api('PUT', `/projects/${w.project.id}/merge_requests/${iid}/merge`, { token, body });

beforeAll(async () => {
  kiln = await testKiln();
  w = await repositoryWorld(kiln);
  await seedRepository(kiln, w.owner, w.project.id);
  const project = await kiln.deps.db.selectFrom('projects').selectAll().where('id', '=', w.project.id).executeTakeFirstOrThrow();
  repoPath = (await readableRepository(kiln.deps, project))!;
});

afterAll(async () => {
  await kiln?.close();
});

describe('a push to the source branch', () => {
  it('records a second version with the added commits, and the diff endpoints read it', async () => {
    const mr = await mergeRequestFor('topic', [create('a.txt', 'a\n')]);
    await branchWith(kiln, w.developer, w.project.id, 'topic', [create('b.txt', 'b\n')], 'topic: second');
    await kiln.worker.drain();
    const versions = await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/merge_requests/${mr.iid}/versions`);
    expect(versions).toHaveLength(2);
    expect(versions[0]).toMatchObject({ state: 'collected', real_size: '2', merge_request_id: mr.id });
    const version = await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/merge_requests/${mr.iid}/versions/${versions[1].id}`);
    expect(version.commits.map((commit: any) => commit.title)).toEqual(['topic: change']);
    expect(version.diffs.map((diff: any) => diff.new_path)).toEqual(['a.txt']);
    const changes = await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/merge_requests/${mr.iid}/changes`);
    expect(changes).toMatchObject({ overflow: false, changes_count: '2', sha: versions[0].head_commit_sha });
    expect(changes.changes.map((diff: any) => [diff.new_path, diff.new_file, diff.too_large])).toEqual([['a.txt', true, false], ['b.txt', true, false]]);
    const diffs = await kiln.api('GET', `/projects/${w.project.id}/merge_requests/${mr.iid}/diffs`, { token: w.reporter.token, query: { per_page: 1 } });
    expect(diffs.body).toHaveLength(1);
    expect(diffs.headers['x-total']).toBe('2');
    const commits = await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/merge_requests/${mr.iid}/commits`);
    expect(commits.map((commit: any) => commit.title)).toEqual(['topic: second', 'topic: change']);
    const raw = await kiln.request('GET', `/api/v4/projects/${w.project.id}/merge_requests/${mr.iid}/raw_diffs`, { token: w.reporter.token });
    expect(raw.body).toContain('+++ b/b.txt');
    const notes = await kiln.deps.db.selectFrom('notes').select('body').where('noteable_type', '=', 'MergeRequest').where('noteable_id', '=', mr.id).execute();
    expect(notes.map((note: { body: string }) => note.body.split('\n')[0])).toEqual(['added 1 commit']);
    const ref = execFileSync('git', ['--git-dir', repoPath, 'rev-parse', `refs/merge-requests/${mr.iid}/head`]).toString().trim();
    expect(ref).toBe(versions[0].head_commit_sha);
    const mergeRef = await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/merge_requests/${mr.iid}/merge_ref`);
    expect(mergeRef.commit_id).toMatch(/^[0-9a-f]{40}$/);
  });
});

describe('PUT /projects/:id/merge_requests/:merge_request_iid/merge', () => {
  it('as a Developer into the protected default branch is 401; with a stale sha 409; as a Maintainer merges with a merge commit', async () => {
    const mr = (await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/merge_requests?source_branch=topic`))[0];
    expect(await merge(mr.iid, {}, w.developer.token)).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await merge(mr.iid, { sha: 'f'.repeat(40) })).toMatchObject({ status: 409, body: { message: `SHA does not match HEAD of source branch: ${mr.sha}` } });
    const merged = await merge(mr.iid, { sha: mr.sha, should_remove_source_branch: true });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(merged.body).toMatchObject({ state: 'merged', merged_by: { username: w.maintainer.username }, merge_user: { username: w.maintainer.username }, should_remove_source_branch: true, detailed_merge_status: 'not_open' });
    expect(merged.body.merge_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    expect(cloneHistory()[0]).toEqual({ subject: "Merge branch 'topic' into 'main'", parents: 2 });
    const message = execFileSync('git', ['--git-dir', repoPath, 'log', '-1', '--format=%B', merged.body.merge_commit_sha]).toString();
    expect(message.trimEnd()).toBe(`Merge branch 'topic' into 'main'\n\nMerge topic\n\nSee merge request ${w.group.path}/app!${mr.iid}`);
    expect((await kiln.api('GET', `/projects/${w.project.id}/repository/branches/topic`, { token: w.owner.token })).status).toBe(404);
    expect(await merge(mr.iid)).toMatchObject({ status: 405, body: { message: '405 Method Not Allowed' } });
  });

  it('squashes into one commit authored by the merge request author, then merges it', async () => {
    const mr = await mergeRequestFor('squashy', [create('s1.txt', '1\n')]);
    await branchWith(kiln, w.developer, w.project.id, 'squashy', [create('s2.txt', '2\n')], 'squashy: more');
    await kiln.worker.drain();
    const merged = await merge(mr.iid, { squash: true, squash_commit_message: 'One squashed commit' });
    expect(merged.body).toMatchObject({ state: 'merged', squash: true });
    const history = cloneHistory();
    expect(history[0]).toEqual({ subject: "Merge branch 'squashy' into 'main'", parents: 2 });
    const squashed = execFileSync('git', ['--git-dir', repoPath, 'log', '-1', '--format=%s|%an|%cn|%P', merged.body.squash_commit_sha]).toString().trim().split('|');
    expect(squashed.slice(0, 3)).toEqual(['One squashed commit', `User ${w.developer.username}`, `User ${w.maintainer.username}`]);
    expect(squashed[3].split(' ')).toHaveLength(1);
  });

  it('fast-forwards with merge_method ff, and refuses a diverged branch with 406 until the rebase endpoint rebases it', async () => {
    await setProject({ merge_method: 'ff' });
    const mr = await mergeRequestFor('fast', [create('f.txt', 'f\n')]);
    const ahead = await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/merge_requests/${mr.iid}`);
    expect(ahead.detailed_merge_status).toBe('mergeable');
    const diverged = await mergeRequestFor('behind', [create('g.txt', 'g\n')]);
    expect((await merge(mr.iid)).body).toMatchObject({ state: 'merged', merge_commit_sha: null });
    expect(cloneHistory()[0]).toEqual({ subject: 'fast: change', parents: 1 });
    await kiln.worker.drain();
    expect((await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/merge_requests/${diverged.iid}`)).detailed_merge_status).toBe('need_rebase');
    expect(await merge(diverged.iid)).toMatchObject({ status: 406, body: { message: 'Branch cannot be merged' } });
    const rebase = await kiln.api('PUT', `/projects/${w.project.id}/merge_requests/${diverged.iid}/rebase`, { token: w.developer.token });
    expect(rebase).toMatchObject({ status: 202, body: { rebase_in_progress: true } });
    await kiln.worker.drain();
    const rebased = await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/merge_requests/${diverged.iid}?include_rebase_in_progress=true`);
    expect(rebased).toMatchObject({ rebase_in_progress: false, merge_error: null, detailed_merge_status: 'mergeable' });
    expect((await merge(diverged.iid)).body.state).toBe('merged');
    expect(cloneHistory().slice(0, 2)).toEqual([{ subject: 'behind: change', parents: 1 }, { subject: 'fast: change', parents: 1 }]);
  });

  it('makes a merge commit even when it could fast-forward with rebase_merge', async () => {
    await setProject({ merge_method: 'rebase_merge' });
    const mr = await mergeRequestFor('semi', [create('semi.txt', 's\n')]);
    const merged = await merge(mr.iid);
    expect(merged.body.state).toBe('merged');
    expect(cloneHistory()[0]).toEqual({ subject: "Merge branch 'semi' into 'main'", parents: 2 });
    await setProject({ merge_method: 'merge' });
  });

  it('with rebase_merge, a branch behind the target needs a rebase (406 until rebased), then gets its merge commit', async () => {
    await setProject({ merge_method: 'rebase_merge' });
    const behind = await mergeRequestFor('semi-behind', [create('semi-behind.txt', 'b\n')]);
    await kiln.apiAs(w.owner, 'POST', `/projects/${w.project.id}/repository/commits`, { branch: 'main', commit_message: 'main moves on', actions: [create('moved-on.txt', 'm\n')] });
    await kiln.worker.drain();
    expect((await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/merge_requests/${behind.iid}`)).detailed_merge_status).toBe('need_rebase');
    expect(await merge(behind.iid)).toMatchObject({ status: 406, body: { message: 'Branch cannot be merged' } });
    expect((await kiln.api('PUT', `/projects/${w.project.id}/merge_requests/${behind.iid}/rebase`, { token: w.developer.token })).status).toBe(202);
    await kiln.worker.drain();
    expect((await merge(behind.iid)).body.state).toBe('merged');
    const history = cloneHistory();
    expect(history.slice(0, 2)).toEqual([{ subject: "Merge branch 'semi-behind' into 'main'", parents: 2 }, { subject: 'main moves on', parents: 1 }]);
    await setProject({ merge_method: 'merge' });
  });

  it('squashes with each merge method: ff puts the one squashed commit on main, rebase_merge merges it with a merge commit', async () => {
    const squashedBranch = async (branch: string) => {
      const mr = await mergeRequestFor(branch, [create(`${branch}-1.txt`, '1\n')]);
      await branchWith(kiln, w.developer, w.project.id, branch, [create(`${branch}-2.txt`, '2\n')], `${branch}: more`);
      await kiln.worker.drain();
      return mr;
    };
    await setProject({ merge_method: 'ff' });
    const fast = await squashedBranch('ff-squash');
    const fastMerged = await merge(fast.iid, { squash: true, squash_commit_message: 'Fast and squashed' });
    expect(fastMerged.body).toMatchObject({ state: 'merged', squash: true, merge_commit_sha: null });
    expect(cloneHistory()[0]).toEqual({ subject: 'Fast and squashed', parents: 1 });
    expect(execFileSync('git', ['--git-dir', repoPath, 'rev-parse', 'main']).toString().trim()).toBe(fastMerged.body.squash_commit_sha);

    await setProject({ merge_method: 'rebase_merge' });
    const semi = await squashedBranch('semi-squash');
    const semiMerged = await merge(semi.iid, { squash: true, squash_commit_message: 'Semi and squashed' });
    expect(semiMerged.body).toMatchObject({ state: 'merged', squash: true });
    const history = execFileSync('git', ['--git-dir', repoPath, 'log', '-1', '--format=%s|%P', 'main']).toString().trim().split('|');
    expect(history[0]).toBe("Merge branch 'semi-squash' into 'main'");
    expect(history[1].split(' ')).toEqual([fastMerged.body.squash_commit_sha, semiMerged.body.squash_commit_sha]);
    expect(cloneHistory()[0]).toEqual({ subject: "Merge branch 'semi-squash' into 'main'", parents: 2 });
    await setProject({ merge_method: 'merge' });
  });

  it('a conflicting merge request reports has_conflicts and is refused with 406', async () => {
    const mr = await mergeRequestFor('clash', [update('README.md', 'mine\n')]);
    await kiln.apiAs(w.owner, 'POST', `/projects/${w.project.id}/repository/commits`, { branch: 'main', commit_message: 'theirs', actions: [update('README.md', 'theirs\n')] });
    await kiln.worker.drain();
    expect(await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/merge_requests/${mr.iid}`)).toMatchObject({ has_conflicts: true, merge_status: 'cannot_be_merged' });
    expect(await merge(mr.iid)).toMatchObject({ status: 406, body: { message: 'Branch cannot be merged' } });
  });

  it('two merges racing into one branch: one merges, the other gets an error and nothing is lost', async () => {
    const first = await mergeRequestFor('race-a', [create('ra.txt', 'a\n')]);
    const second = await mergeRequestFor('race-b', [create('rb.txt', 'b\n')]);
    const answers = await Promise.all([merge(first.iid), merge(second.iid), merge(first.iid)]);
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((status) => [200, 405, 406].includes(status))).toBe(true);
    const states = await Promise.all([first, second].map(async (mr) => (await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/merge_requests/${mr.iid}`)).state));
    const history = cloneHistory().map((entry) => entry.subject);
    for (const [index, mr] of [first, second].entries()) {
      if (states[index] === 'merged') expect(history).toContain(`Merge branch '${mr.source_branch}' into 'main'`);
      else expect(states[index]).toBe('opened');
    }
    expect(answers.filter((answer) => answer.status === 200).length).toBe(states.filter((state) => state === 'merged').length);
  });
});

describe('approvals', () => {
  it('approvals_before_merge blocks merging (405) until a Maintainer approves; the author may not approve their own', async () => {
    await setProject({ approvals_before_merge: 1 });
    const mr = await mergeRequestFor('needs-review', [create('nr.txt', 'n\n')]);
    expect((await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/merge_requests/${mr.iid}`)).detailed_merge_status).toBe('not_approved');
    expect((await merge(mr.iid)).status).toBe(405);
    expect((await kiln.api('POST', `/projects/${w.project.id}/merge_requests/${mr.iid}/approve`, { token: w.developer.token })).status).toBe(401);
    expect((await kiln.api('POST', `/projects/${w.project.id}/merge_requests/${mr.iid}/approve`, { token: w.maintainer.token, body: { sha: 'a'.repeat(40) } })).status).toBe(409);
    const approved = await kiln.api('POST', `/projects/${w.project.id}/merge_requests/${mr.iid}/approve`, { token: w.maintainer.token, body: { sha: mr.sha } });
    expect(approved).toMatchObject({ status: 201, body: { approved: true, approvals_left: 0, user_has_approved: true, approved_by: [{ user: { username: w.maintainer.username } }] } });
    expect((await kiln.api('POST', `/projects/${w.project.id}/merge_requests/${mr.iid}/approve`, { token: w.maintainer.token })).status).toBe(401);
    const state = await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/merge_requests/${mr.iid}/approval_state`);
    expect(state.rules[0]).toMatchObject({ approvals_required: 1, approved: true });
    const unapproved = await kiln.api('POST', `/projects/${w.project.id}/merge_requests/${mr.iid}/unapprove`, { token: w.maintainer.token });
    expect(unapproved).toMatchObject({ status: 201, body: { approved: false, approvals_left: 1 } });
    expect((await kiln.api('POST', `/projects/${w.project.id}/merge_requests/${mr.iid}/unapprove`, { token: w.maintainer.token })).status).toBe(404);
    await kiln.apiAs(w.owner, 'POST', `/projects/${w.project.id}/merge_requests/${mr.iid}/approve`);
    const merged = await merge(mr.iid);
    expect(merged.body.state).toBe('merged');
    const events = await kiln.apiAs(w.owner, 'GET', `/projects/${w.project.id}/events?target_type=merge_request&action=approved`);
    expect(events.length).toBeGreaterThanOrEqual(2);
    await setProject({ approvals_before_merge: 0 });
  });

  it('a push resets the approvals (reset_approvals_on_push)', async () => {
    const mr = await mergeRequestFor('reset', [create('r.txt', 'r\n')]);
    await kiln.apiAs(w.maintainer, 'POST', `/projects/${w.project.id}/merge_requests/${mr.iid}/approve`);
    await branchWith(kiln, w.developer, w.project.id, 'reset', [create('r2.txt', 'r\n')], 'reset: again');
    await kiln.worker.drain();
    expect((await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/merge_requests/${mr.iid}/approvals`)).approved_by).toEqual([]);
  });
});

describe('issues closed by merging', () => {
  it('GET …/closes_issues lists what the description and commits close, closed_by the other way, and merging closes them', async () => {
    const issues = [];
    for (const title of ['one', 'two', 'three']) issues.push(await kiln.apiAs(w.owner, 'POST', `/projects/${w.project.id}/issues`, { title }));
    const mr = await mergeRequestFor('closer', [create('closer.txt', 'c\n')], { description: `Closes #${issues[0].iid}` });
    await branchWith(kiln, w.developer, w.project.id, 'closer', [create('closer2.txt', 'c\n')], `Fixes #${issues[1].iid} and more`);
    await kiln.worker.drain();
    const closes = await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/merge_requests/${mr.iid}/closes_issues`);
    expect(closes.map((issue: any) => issue.iid)).toEqual([issues[0].iid, issues[1].iid]);
    const closedBy = await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/issues/${issues[0].iid}/closed_by`);
    expect(closedBy.map((item: any) => item.iid)).toEqual([mr.iid]);
    const merged = await merge(mr.iid);
    expect(merged.body.state).toBe('merged');
    const message = execFileSync('git', ['--git-dir', repoPath, 'log', '-1', '--format=%B', merged.body.merge_commit_sha]).toString();
    expect(message).toContain(`Closes #${issues[0].iid} and #${issues[1].iid}`);
    for (const issue of issues.slice(0, 2)) expect((await kiln.apiAs(w.owner, 'GET', `/projects/${w.project.id}/issues/${issue.iid}`)).state).toBe('closed');
    // A direct push to the default branch closes what its commits name.
    await kiln.apiAs(w.owner, 'POST', `/projects/${w.project.id}/repository/commits`, { branch: 'main', commit_message: `Resolves #${issues[2].iid}`, actions: [create('direct.txt', 'd\n')] });
    await kiln.worker.drain();
    expect((await kiln.apiAs(w.owner, 'GET', `/projects/${w.project.id}/issues/${issues[2].iid}`)).state).toBe('closed');
  });

  it('an edit and a push syncing the same links at once both succeed (no primary-key failure on PostgreSQL)', async () => {
    const issue = await kiln.apiAs(w.owner, 'POST', `/projects/${w.project.id}/issues`, { title: 'raced' });
    const mr = await mergeRequestFor('racer', [create('racer.txt', 'r\n')], { description: `Closes #${issue.iid}` });
    const row = (await findMergeRequestById(kiln.deps.db, mr.id))!;
    await kiln.deps.db.deleteFrom('merge_requests_closing_issues').where('merge_request_id', '=', mr.id).execute();
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => syncClosingIssues(kiln.deps, row)));
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
    const closes = await kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/merge_requests/${mr.iid}/closes_issues`);
    expect(closes.map((item: any) => item.iid)).toEqual([issue.iid]);
  });
});

describe('the rebase endpoint', () => {
  const CI = 'test:\n  script: echo ok\n';
  const pipelinesOf = async (sha: string) => (await kiln.apiAs(w.maintainer, 'GET', `/projects/${w.project.id}/pipelines?sha=${sha}`)) as Array<{ sha: string; source: string }>;
  const rebaseAndWait = async (iid: number, query = '') => {
    expect(await kiln.api('PUT', `/projects/${w.project.id}/merge_requests/${iid}/rebase${query}`, { token: w.developer.token })).toMatchObject({ status: 202, body: { rebase_in_progress: true } });
    await kiln.worker.drain();
    return kiln.apiAs(w.reporter, 'GET', `/projects/${w.project.id}/merge_requests/${iid}?include_rebase_in_progress=true`);
  };

  it('skip_ci=true moves the branch without a pipeline for the rebased head; without it the rebased head gets its pipeline', async () => {
    await setProject({ merge_method: 'merge' });
    // The CI configuration lives on the source branch only: main's own commits start no pipeline.
    const mr = await mergeRequestFor('ci-topic', [create('.gitlab-ci.yml', CI), create('ci-topic.txt', 'c\n')]);
    await kiln.api('POST', `/projects/${w.project.id}/repository/commits`, { token: w.maintainer.token, body: { branch: 'main', commit_message: 'main moves on (1)', actions: [create('moves-1.txt', '1\n')] } });
    const skipped = await rebaseAndWait(mr.iid, '?skip_ci=true');
    expect(skipped).toMatchObject({ rebase_in_progress: false, merge_error: null });
    expect(skipped.sha).not.toBe(mr.sha);
    await kiln.worker.drain();
    expect(await pipelinesOf(skipped.sha)).toEqual([]);
    await kiln.api('POST', `/projects/${w.project.id}/repository/commits`, { token: w.maintainer.token, body: { branch: 'main', commit_message: 'main moves on (2)', actions: [create('moves-2.txt', '2\n')] } });
    const rebased = await rebaseAndWait(mr.iid);
    expect(rebased).toMatchObject({ rebase_in_progress: false, merge_error: null });
    await kiln.worker.drain();
    expect(await pipelinesOf(rebased.sha)).toEqual([expect.objectContaining({ sha: rebased.sha, source: 'push' })]);
    // Two rebases, each waited for, and two pipelines' worth of jobs: 17 s seen on a loaded machine.
  }, 60_000);

  it('a conflicting rebase leaves the branch and reports GitLab\'s merge_error; a later rebase that succeeds clears it', async () => {
    const mr = await mergeRequestFor('rebase-clash', [create('rebase-clash.txt', 'topic\n')]);
    await kiln.api('POST', `/projects/${w.project.id}/repository/commits`, { token: w.maintainer.token, body: { branch: 'main', commit_message: 'main clashes', actions: [create('rebase-clash.txt', 'main\n')] } });
    const failed = await rebaseAndWait(mr.iid);
    expect(failed).toMatchObject({ rebase_in_progress: false, merge_error: 'Rebase failed. Please rebase locally', sha: mr.sha });
    // Main gives the file up: the branch's commit now replays cleanly.
    await kiln.api('POST', `/projects/${w.project.id}/repository/commits`, { token: w.maintainer.token, body: { branch: 'main', commit_message: 'main lets go', actions: [{ action: 'delete', file_path: 'rebase-clash.txt' }] } });
    expect(await rebaseAndWait(mr.iid)).toMatchObject({ rebase_in_progress: false, merge_error: null });
  });
});
