// python-gitlab 3.12 (Debian) and @gitbeaker/rest drive merge requests against a started `kiln serve`:
// open, list with filters, read, change, approve and unapprove, versions, changes and commits,
// participants, squash-merge, rebase (python-gitlab with skip_ci, a conflicting one, and a second
// user's approval too); a real git then fetches the merge request's head ref and a
// fresh clone shows the merged history. On SQLite, and on a fresh PostgreSQL database when
// KILN_TEST_DATABASE_URL names a server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Gitlab } from '@gitbeaker/rest';
import { onFreshPostgres } from './helpers/fresh-postgres.js';
import { apiCall, startKilnProcess, type KilnProcess } from './helpers/server.js';
import { runPython } from './helpers/python.js';

function git(work: string, args: string[], cwd = work): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('git', ['-c', 'user.name=Git User', '-c', 'user.email=git@example.com', ...args], {
      cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' },
    }, (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

const PYTHON = `
import json, os, time, gitlab
gl = gitlab.Gitlab(os.environ["URL"], private_token=os.environ["TOKEN"])
p = gl.projects.get(os.environ["PROJECT"])
out = {}
p.commits.create({"branch": "py-feature", "start_branch": "main", "commit_message": "Py one", "actions": [{"action": "create", "file_path": "py1.txt", "content": "1\\n"}]})
issue = p.issues.create({"title": "Closed by the merge request"})
mr = p.mergerequests.create({"source_branch": "py-feature", "target_branch": "main", "title": "Draft: Python change", "labels": ["py", "client"], "description": "- [ ] check\\n\\nCloses #%d" % issue.iid})
out["created"] = [mr.iid, mr.state, mr.draft, sorted(mr.labels), mr.task_completion_status, mr.references["short"]]
try:
    p.mergerequests.create({"source_branch": "py-feature", "target_branch": "main", "title": "again"})
except gitlab.exceptions.GitlabCreateError as err:
    out["duplicate"] = [err.response_code, err.error_message]
p.commits.create({"branch": "py-feature", "commit_message": "Py two", "actions": [{"action": "create", "file_path": "py2.txt", "content": "2\\n"}]})
for _ in range(50):
    mr = p.mergerequests.get(mr.iid)
    if len(mr.diffs.list()) == 2 and mr.merge_status in ("can_be_merged", "cannot_be_merged"):
        break
    time.sleep(0.1)
out["listed"] = [m.iid for m in p.mergerequests.list(state="opened", labels=["py"])]
out["listed_not"] = [m.iid for m in p.mergerequests.list(query_parameters={"not[labels]": "py"})]
mr.title = "Python change"
mr.squash = True
mr.save()
for _ in range(50):
    mr = p.mergerequests.get(mr.iid)
    if mr.merge_status in ("can_be_merged", "cannot_be_merged"):
        break
    time.sleep(0.1)
out["saved"] = [mr.title, mr.draft, mr.squash, mr.merge_status, mr.detailed_merge_status]
out["versions"] = [v.state for v in mr.diffs.list()]
out["changes"] = sorted(c["new_path"] for c in mr.changes()["changes"])
out["commits"] = [c.title for c in mr.commits()]
out["participants"] = [u["username"] for u in mr.participants()]
# Comments, and a thread on a line of the latest version (GitLab's position object).
mr.notes.create({"body": "Looks fine"})
out["notes"] = [n.body for n in mr.notes.list() if not n.system]
refs = mr.diff_refs
thread = mr.discussions.create({"body": "On a line", "position": {"base_sha": refs["base_sha"], "start_sha": refs["start_sha"], "head_sha": refs["head_sha"], "position_type": "text", "new_path": "py2.txt", "new_line": 1}})
first = thread.attributes["notes"][0]
out["thread"] = [first["type"], first["position"]["new_path"], first["position"]["new_line"], first["resolvable"]]
out["discussions"] = len([d for d in mr.discussions.list(all=True) if not d.attributes["notes"][0]["system"]])
out["closes"] = [i.iid for i in mr.closes_issues()] == [issue.iid]
# The author may not approve their own merge request (merge_requests_author_approval is off).
try:
    mr.approve(sha=mr.sha)
except gitlab.exceptions.GitlabAuthenticationError as err:
    out["approve_own"] = err.response_code
try:
    mr.unapprove()
except gitlab.exceptions.GitlabMRApprovalError as err:
    out["unapprove_none"] = err.response_code
approvals = mr.approvals.get()
out["approvals"] = [approvals.approved_by, approvals.user_can_approve, approvals.approvals_left]
# Time tracking (a lazy merge request asks GET …/time_stats; a fetched one answers its attribute).
out["mr_spent"] = mr.add_spent_time("45m")["human_total_time_spent"]
out["mr_stats"] = p.mergerequests.get(mr.iid, lazy=True).time_stats()["total_time_spent"]
out["mr_reset"] = mr.reset_spent_time()["total_time_spent"]
mr.merge(merge_commit_message="Merged by python-gitlab", should_remove_source_branch=True)
mr = p.mergerequests.get(mr.iid)
out["merged"] = [mr.state, mr.squash_commit_sha is not None, mr.merge_commit_sha is not None]
out["issue_state"] = p.issues.get(issue.iid).state
try:
    mr.merge()
except gitlab.exceptions.GitlabMRClosedError as err:
    out["merge_again"] = err.response_code
print(json.dumps(out))
`;

// Forks through python-gitlab: fork, the upstream's forks list, a merge request from the fork into the
// upstream (opened through the fork's manager, as python-gitlab does it), merged with the fork's branch
// deleted (root may write to the fork).
const PYTHON_FORK = `
import json, os, time, gitlab
gl = gitlab.Gitlab(os.environ["URL"], private_token=os.environ["TOKEN"])
p = gl.projects.get(os.environ["PROJECT"])
out = {}
created = p.forks.create({"path": "tool-fork", "name": "tool-fork"})
fork = gl.projects.get(created.id)
out["fork"] = [fork.path_with_namespace, fork.forked_from_project["id"] == p.id]
out["forks"] = [f.id == fork.id for f in p.forks.list()]
fork.commits.create({"branch": "fork-topic", "start_branch": "main", "commit_message": "From the fork", "actions": [{"action": "create", "file_path": "fork.txt", "content": "forked\\n"}]})
opened = fork.mergerequests.create({"source_branch": "fork-topic", "target_branch": "main", "title": "From a fork", "target_project_id": p.id, "allow_collaboration": True})
out["opened"] = [opened.project_id == p.id, opened.source_project_id == fork.id, opened.allow_collaboration]
mr = p.mergerequests.get(opened.iid)
for _ in range(100):
    mr = p.mergerequests.get(opened.iid)
    if mr.merge_status in ("can_be_merged", "cannot_be_merged"):
        break
    time.sleep(0.1)
out["status"] = mr.merge_status
out["changes"] = [c["new_path"] for c in mr.changes()["changes"]]
mr.merge(should_remove_source_branch=True)
mr = p.mergerequests.get(opened.iid)
out["merged"] = mr.state
out["file"] = p.files.raw(file_path="fork.txt", ref="main").decode()
out["fork_branches"] = [name in [b.name for b in fork.branches.list()] for name in ("fork-topic", "main")]
print(json.dumps(out))
`;

// Rebase and a second user's approval through python-gitlab: mr.rebase(skip_ci=True) answers
// rebase_in_progress, the merge request read with include_rebase_in_progress=true shows it finished
// (or GitLab's merge_error when the branch conflicts); a reviewer approves, reads the approvals and
// takes the approval back, and the author sees each step.
const PYTHON_REBASE_APPROVE = `
import json, os, time, gitlab
gl = gitlab.Gitlab(os.environ["URL"], private_token=os.environ["TOKEN"])
reviewer = gitlab.Gitlab(os.environ["URL"], private_token=os.environ["REVIEWER_TOKEN"])
p = gl.projects.get(os.environ["PROJECT"])
out = {}
# The rebase is in progress until the merge request shows the rebased head as its sha.
def settled(iid):
    for _ in range(200):
        mr = p.mergerequests.get(iid, include_rebase_in_progress=True)
        if not mr.rebase_in_progress:
            return mr
        time.sleep(0.1)
    return mr
p.commits.create({"branch": "py-rebase", "start_branch": "main", "commit_message": "Rebase me", "actions": [{"action": "create", "file_path": "rebase.txt", "content": "r\\n"}]})
p.commits.create({"branch": "py-clash", "start_branch": "main", "commit_message": "Clash", "actions": [{"action": "update", "file_path": "README.md", "content": "topic\\n"}]})
main = p.commits.create({"branch": "main", "commit_message": "Main moves on", "actions": [{"action": "update", "file_path": "README.md", "content": "main\\n"}]})
mr = p.mergerequests.create({"source_branch": "py-rebase", "target_branch": "main", "title": "Rebase through python-gitlab"})
before = mr.sha
out["rebase"] = mr.rebase(skip_ci=True)
mr = settled(mr.iid)
out["rebased"] = [mr.rebase_in_progress, mr.merge_error, mr.sha != before, p.commits.get(mr.sha).parent_ids == [main.id]]
out["pipelines"] = len(p.pipelines.list(sha=mr.sha))
clash = p.mergerequests.create({"source_branch": "py-clash", "target_branch": "main", "title": "Clashes with main"})
clash.rebase()
clash = settled(clash.iid)
out["clash"] = [clash.rebase_in_progress, clash.merge_error, clash.has_conflicts if hasattr(clash, "has_conflicts") else None]
theirs = reviewer.projects.get(os.environ["PROJECT"]).mergerequests.get(mr.iid)
answer = theirs.approve(sha=theirs.sha)
out["approve"] = [answer["approved"], [a["user"]["username"] for a in answer["approved_by"]], answer["user_has_approved"]]
try:
    theirs.approve()
except gitlab.exceptions.GitlabError as err:
    out["approve_again"] = err.response_code
approvals = theirs.approvals.get()
out["reviewer_view"] = [[a["user"]["username"] for a in approvals.approved_by], approvals.user_has_approved, approvals.user_can_approve]
approvals = mr.approvals.get()
out["author_view"] = [[a["user"]["username"] for a in approvals.approved_by], approvals.user_has_approved]
theirs.unapprove()
out["unapproved"] = [a["user"]["username"] for a in mr.approvals.get().approved_by]
try:
    theirs.unapprove()
except gitlab.exceptions.GitlabMRApprovalError as err:
    out["unapprove_again"] = err.response_code
print(json.dumps(out))
`;

function suite(label: string, env: () => Record<string, string> | undefined) {
  describe(label, () => {
    let kiln: KilnProcess;
    let project: { id: number; path_with_namespace: string };
    let work: string;

    beforeAll(async () => {
      work = mkdtempSync(join(tmpdir(), 'kiln-client-mr-'));
      kiln = await startKilnProcess({ env: env() });
      const group = await apiCall(kiln, 'POST', '/groups', { name: 'acme', path: 'acme' });
      project = await apiCall(kiln, 'POST', '/projects', { name: 'tool', path: 'tool', namespace_id: group.id });
      await apiCall(kiln, 'POST', `/projects/${project.id}/repository/commits`, { branch: 'main', commit_message: 'first', actions: [{ action: 'create', file_path: 'README.md', content: 'hello\n' }] });
    });
    afterAll(async () => {
      await kiln?.stop();
      rmSync(work, { recursive: true, force: true });
    });

    it('python-gitlab 3.12: project.mergerequests create, list, get, save, diffs, changes, commits, participants, notes, a diff thread with a position, closes_issues, approve, time tracking, merge closing the issue', async () => {
      const { stdout } = await runPython(PYTHON, { URL: kiln.url, TOKEN: kiln.rootToken, PROJECT: project.path_with_namespace });
      const out = JSON.parse(stdout);
      expect(out.created).toEqual([1, 'opened', true, ['client', 'py'], { count: 1, completed_count: 0 }, '!1']);
      expect(out.duplicate[0]).toBe(409);
      expect(out.duplicate[1]).toContain('Another open merge request already exists for this source branch: !1');
      expect(out.listed).toEqual([1]);
      expect(out.listed_not).toEqual([]);
      expect(out.saved).toEqual(['Python change', false, true, 'can_be_merged', 'mergeable']);
      expect(out.versions).toEqual(['collected', 'collected']);
      expect(out.changes).toEqual(['py1.txt', 'py2.txt']);
      expect(out.commits).toEqual(['Py two', 'Py one']);
      expect(out.participants).toEqual(['root']);
      expect(out.notes).toEqual(['Looks fine']);
      expect(out.thread).toEqual(['DiffNote', 'py2.txt', 1, true]);
      expect(out.discussions).toBe(2);
      expect(out.closes).toBe(true);
      expect(out.approve_own).toBe(401);
      expect(out.unapprove_none).toBe(404);
      expect(out.approvals).toEqual([[], false, 0]);
      expect([out.mr_spent, out.mr_stats, out.mr_reset]).toEqual(['45m', 2700, 0]);
      expect(out.merged).toEqual(['merged', true, true]);
      expect(out.merge_again).toBe(405);
      expect(out.issue_state).toBe('closed');
    });

    it('@gitbeaker/rest: MergeRequests create, all, show, edit, allDiffVersions, showChanges, rebase, accept; git fetches the head ref', async () => {
      const api = new Gitlab({ host: kiln.url, token: kiln.rootToken });
      const id = project.id;
      await api.Commits.create(id, 'gb-topic', 'Gitbeaker change', [{ action: 'create', filePath: 'gb.txt', content: 'gb\n' }], { startBranch: 'main' });
      await api.Commits.create(id, 'main', 'Main moves on', [{ action: 'create', filePath: 'main2.txt', content: 'm\n' }]);
      const mr = await api.MergeRequests.create(id, 'gb-topic', 'main', 'Gitbeaker MR', { description: 'from gitbeaker' });
      expect([mr.iid, mr.state, mr.source_branch]).toEqual([2, 'opened', 'gb-topic']);
      expect((await api.MergeRequests.all({ projectId: id, state: 'opened' })).map((item) => item.iid)).toEqual([2]);
      const edited = await api.MergeRequests.edit(id, mr.iid, { addLabels: 'gb', reviewerIds: [1] });
      expect([edited.labels, (edited.reviewers as Array<{ username: string }>).map((user) => user.username)]).toEqual([['gb'], ['root']]);
      const versions = await api.MergeRequests.allDiffVersions(id, mr.iid);
      expect(versions).toHaveLength(1);
      const changes = await api.MergeRequests.showChanges(id, mr.iid);
      expect((changes.changes as Array<{ new_path: string }>).map((change) => change.new_path)).toEqual(['gb.txt']);
      const rebase = await api.MergeRequests.rebase(id, mr.iid);
      expect(rebase).toMatchObject({ rebase_in_progress: true });
      let after = await api.MergeRequests.show(id, mr.iid, { includeRebaseInProgress: true });
      for (let tries = 0; tries < 50 && (after.rebase_in_progress || after.merge_status !== 'can_be_merged' || (await api.MergeRequests.allDiffVersions(id, mr.iid)).length < 2); tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        after = await api.MergeRequests.show(id, mr.iid, { includeRebaseInProgress: true });
      }
      after = await api.MergeRequests.show(id, mr.iid, { includeRebaseInProgress: true });
      expect([after.rebase_in_progress, after.merge_error, after.diverged_commits_count]).toEqual([false, null, undefined]);
      const remote = `${kiln.url.replace('http://', `http://root:${kiln.rootToken}@`)}/${project.path_with_namespace}.git`;
      const dir = join(work, 'clone');
      expect((await git(work, ['clone', '-q', remote, dir])).code).toBe(0);
      const fetched = await git(work, ['fetch', '-q', 'origin', `merge-requests/${mr.iid}/head`], dir);
      expect(fetched.code, fetched.stderr).toBe(0);
      expect((await git(work, ['log', '-1', '--format=%s', 'FETCH_HEAD'], dir)).stdout.trim()).toBe('Gitbeaker change');
      const accepted = await api.MergeRequests.accept(id, mr.iid, { sha: after.sha as string });
      expect(accepted.state).toBe('merged');
      const pull = await git(work, ['pull', '-q', '--ff-only', 'origin', 'main'], dir);
      expect(pull.code, pull.stderr).toBe(0);
      expect((await git(work, ['log', '-1', '--format=%s%n%P', 'origin/main'], dir)).stdout.split('\n')[0]).toBe("Merge branch 'gb-topic' into 'main'");
    });

    it('python-gitlab 3.12: mr.rebase(skip_ci=True) with include_rebase_in_progress and merge_error, and a second user\'s approve, approvals.get and unapprove', async () => {
      const reviewer = await apiCall(kiln, 'POST', '/users', { username: 'py-reviewer', name: 'Py Reviewer', email: 'py-reviewer@example.com', password: 'py-reviewer-password-1' });
      await apiCall(kiln, 'POST', `/projects/${project.id}/members`, { user_id: reviewer.id, access_level: 40 });
      const { token } = await apiCall(kiln, 'POST', `/users/${reviewer.id}/personal_access_tokens`, { name: 'client', scopes: ['api'] });
      const { stdout } = await runPython(PYTHON_REBASE_APPROVE, { URL: kiln.url, TOKEN: kiln.rootToken, REVIEWER_TOKEN: token, PROJECT: project.path_with_namespace });
      const out = JSON.parse(stdout);
      expect(out.rebase).toEqual({ rebase_in_progress: true });
      expect(out.rebased).toEqual([false, null, true, true]);
      expect(out.pipelines).toBe(0);
      expect(out.clash.slice(0, 2)).toEqual([false, 'Rebase failed. Please rebase locally']);
      expect(out.approve).toEqual([true, ['py-reviewer'], true]);
      expect(out.approve_again).toBe(401);
      expect(out.reviewer_view).toEqual([['py-reviewer'], true, false]);
      expect(out.author_view).toEqual([['py-reviewer'], false]);
      expect(out.unapproved).toEqual([]);
      expect(out.unapprove_again).toBe(404);
    });

    it('python-gitlab 3.12: forks.create, forks.list, a merge request from the fork into the upstream, merged with the fork\'s branch deleted', async () => {
      const { stdout } = await runPython(PYTHON_FORK, { URL: kiln.url, TOKEN: kiln.rootToken, PROJECT: project.path_with_namespace });
      const out = JSON.parse(stdout);
      expect(out.fork).toEqual(['root/tool-fork', true]);
      expect(out.forks).toEqual([true]);
      // Asked for, but both projects are private: no collaboration is possible, GitLab answers false.
      expect(out.opened).toEqual([true, true, false]);
      expect(out.status).toBe('can_be_merged');
      expect(out.changes).toEqual(['fork.txt']);
      expect(out.merged).toBe('merged');
      expect(out.file).toBe('forked\n');
      // The fork's source branch is gone, its main stays.
      expect(out.fork_branches).toEqual([false, true]);
    });
  });
}

suite('on SQLite', () => undefined);

onFreshPostgres('merge-requests', (databaseUrl) => {
  suite('python-gitlab, gitbeaker and git', () => ({ KILN_DATABASE_URL: databaseUrl() }));
});
