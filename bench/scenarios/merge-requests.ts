// `npm run bench -- merge-requests` (issue 34): merge requests against their goals, on one repository
// written with git fast-import.
//
// - Reads: a project's merge request list (20 merge requests) and one merge request, loaded against
//   the node:http baselines as diagnostics without a goal (issue 40: one token and one URL measure a
//   cache's best case; the read goal is the realistic mix, which includes merge request lists).
// - Mergeability of a merge request that changes 1,000 files (goal: under a second). Mergeability is
//   worked out in the background (a job after the creation and after every push to either branch), so
//   the time is what a client sees: from the answer to the request that made the answer stale (the
//   POST that opens the merge request, a commit pushed to its source branch through the commits API)
//   to the first GET that shows the new answer, polled every 10 ms. Three cases: a clean merge (main
//   moved on since the branch left it, so a real three-way merge), the same after a push, and a branch
//   that conflicts with main on one of its 1,000 files.
// - The Changes page of a 5,000-line diff (50 files, each with 50 lines changed: 2,500 removed and
//   2,500 added lines; goal: under 300 ms), asked once cold and then 20 times in a row, one request at
//   a time over loopback, and the git processes each view starts (they must not grow with the files).
import { execFile } from 'node:child_process';
import { DIAGNOSTIC, type BenchScenario, type BenchServer, type BenchTarget } from '../scenario.js';
import type { Deps } from '../../src/platform/deps.js';
import { fastImport } from '../git-history.js';
import { benchProject, median, round } from './repository-pages.js';

const WIDE_FILES = 1000;
const PAGE_FILES = 50;
const PAGE_FILE_LINES = 100;
const PAGE_CHANGED_LINES = 50;
const LIST_MERGE_REQUESTS = 20;
const LATER_VIEWS = 20;
const POLL_MS = 10;
const EPOCH = 1_700_000_000;

const wideName = (index: number) => `files/f-${String(index).padStart(4, '0')}.txt`;
const wideText = (index: number, version: string) => Array.from({ length: 10 }, (_, line) => (line === 4 ? `line 5 of ${index}: ${version}` : `line ${line + 1} of ${index}`)).join('\n') + '\n';
const moduleName = (index: number) => `src/module-${String(index).padStart(2, '0')}.ts`;
const moduleText = (index: number, changed: boolean) =>
  Array.from({ length: PAGE_FILE_LINES }, (_, line) => (changed && line % 2 === 0 ? `export const value${index}_${line} = ${line} * 2; // changed` : `export const value${index}_${line} = ${line};`)).join('\n') + '\n';

/** The repository: main (two commits), `wide` (1,000 files), `conflicting`, `five-thousand` and the list's topic branches. */
function stream(): string {
  const out: string[] = [];
  let mark = 0;
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const commit = (ref: string, from: number | null, message: string, changes: [string, string][]): number => {
    mark += 1;
    const who = `Ada Lovelace <ada@example.com> ${EPOCH + mark * 60} +0000`;
    out.push(`commit ${ref}\nmark :${mark}\nauthor ${who}\ncommitter ${who}\n${data(message)}`);
    if (from !== null) out.push(`from :${from}\n`);
    for (const [path, content] of changes) out.push(`M 100644 inline ${path}\n${data(content)}`);
    out.push('\n');
    return mark;
  };
  const first = commit('refs/heads/main', null, 'Start the project', [
    ['README.md', '# Bench\n'],
    ...Array.from({ length: WIDE_FILES }, (_, index): [string, string] => [wideName(index), wideText(index, 'first')]),
    ...Array.from({ length: PAGE_FILES }, (_, index): [string, string] => [moduleName(index), moduleText(index, false)]),
  ]);
  const second = commit('refs/heads/main', first, 'Describe the project', [['README.md', '# Bench\n\nThe merge requests bench.\n']]);
  commit('refs/heads/wide', first, 'Change every file', Array.from({ length: WIDE_FILES }, (_, index): [string, string] => [wideName(index), wideText(index, 'wide')]));
  commit('refs/heads/conflicting', first, 'Change every file and the README', [
    ['README.md', '# Bench, differently\n'],
    ...Array.from({ length: WIDE_FILES }, (_, index): [string, string] => [wideName(index), wideText(index, 'conflicting')]),
  ]);
  commit('refs/heads/five-thousand', second, 'Change half the lines of 50 modules', Array.from({ length: PAGE_FILES }, (_, index): [string, string] => [moduleName(index), moduleText(index, true)]));
  for (let topic = 0; topic < LIST_MERGE_REQUESTS; topic += 1) commit(`refs/heads/topic-${topic}`, second, `Topic ${topic}`, [[`topics/topic-${topic}.md`, `Topic ${topic}\n`]]);
  return out.join('');
}

async function api(server: BenchServer, method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${server.url}/api/v4${path}`, {
    method,
    headers: { 'PRIVATE-TOKEN': server.rootToken, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** Milliseconds from now until the merge request answers `done`, polling every POLL_MS. */
async function untilChecked(server: BenchServer, projectId: number, iid: number, done: (mr: Record<string, unknown>) => boolean, started: bigint): Promise<{ ms: number; mr: Record<string, unknown> }> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { json } = await api(server, 'GET', `/projects/${projectId}/merge_requests/${iid}`);
    if (done(json)) return { ms: Number(process.hrtime.bigint() - started) / 1e6, mr: json };
    if (Date.now() > deadline) throw new Error(`merge request !${iid} still ${String(json.merge_status)} after a minute`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

const settled = (mr: Record<string, unknown>) => mr.merge_status === 'can_be_merged' || mr.merge_status === 'cannot_be_merged';

async function open(server: BenchServer, projectId: number, sourceBranch: string, title: string): Promise<{ iid: number; started: bigint }> {
  const started = process.hrtime.bigint();
  const { status, json } = await api(server, 'POST', `/projects/${projectId}/merge_requests`, { source_branch: sourceBranch, target_branch: 'main', title });
  if (status !== 201) throw new Error(`POST merge_requests (${sourceBranch}) answered ${status}: ${JSON.stringify(json)}`);
  return { iid: Number(json.iid), started };
}

async function timedGet(server: BenchServer, path: string): Promise<{ ms: number; git: number | null }> {
  const before = (await server.gitProcesses?.()) ?? null;
  const started = process.hrtime.bigint();
  const response = await fetch(`${server.url}${path}`, { headers: { 'PRIVATE-TOKEN': server.rootToken } });
  await response.text();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
  const after = (await server.gitProcesses?.()) ?? null;
  return { ms, git: before === null || after === null ? null : after - before };
}

/** What one git process takes on this machine right now (the median of five `git rev-parse`): the figures above scale with it when the machine is loaded. */
async function gitReference(gitDir: string): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < 5; run += 1) {
    const started = process.hrtime.bigint();
    await new Promise<void>((resolve, reject) => execFile('git', ['--git-dir', gitDir, 'rev-parse', 'main'], (error) => (error ? reject(error) : resolve())));
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return median(times);
}


export const mergeRequestsScenario: BenchScenario = {
  name: 'merge-requests',

  async seed(deps: Deps) {
    const project = await benchProject(deps, 'mrs');
    await fastImport(project.gitDir, stream());
    return { projectId: project.id, projectPath: project.fullPath, gitDir: project.gitDir };
  },

  /** The list's merge requests are opened here (through the API, as a client would) before the reads are loaded. */
  async targets(server, seeded): Promise<BenchTarget[]> {
    const projectId = Number(seeded.projectId);
    let last = 0;
    for (let topic = 0; topic < LIST_MERGE_REQUESTS; topic += 1) last = (await open(server, projectId, `topic-${topic}`, `Topic ${topic}`)).iid;
    await untilChecked(server, projectId, last, settled, process.hrtime.bigint());
    const headers = { 'PRIVATE-TOKEN': server.rootToken };
    // Diagnostics: reported beside their baselines, judged by no goal (see the header).
    return [
      { name: `GET /api/v4/projects/:id/merge_requests (${LIST_MERGE_REQUESTS} per page)`, method: 'GET', path: `/api/v4/projects/${projectId}/merge_requests?per_page=${LIST_MERGE_REQUESTS}`, headers, targets: DIAGNOSTIC, connections: 10 },
      { name: 'GET /api/v4/projects/:id/merge_requests/:iid', method: 'GET', path: `/api/v4/projects/${projectId}/merge_requests/${last}`, headers, targets: DIAGNOSTIC, connections: 10 },
    ];
  },

  async custom(server, seeded) {
    const projectId = Number(seeded.projectId);
    const results = [];
    const goalMs = 1000;

    const gitBefore = (await server.gitProcesses?.()) ?? null;
    const wide = await open(server, projectId, 'wide', 'Change every file');
    const created = await untilChecked(server, projectId, wide.iid, settled, wide.started);
    const gitAfter = (await server.gitProcesses?.()) ?? null;
    if (created.mr.merge_status !== 'can_be_merged' || created.mr.changes_count !== `${WIDE_FILES}`) throw new Error(`the 1,000-file merge request answered ${String(created.mr.merge_status)} with ${String(created.mr.changes_count)} changes`);
    results.push({ name: `mergeability of a ${WIDE_FILES.toLocaleString('en-US')}-file merge request: opened → can_be_merged`, value: round(created.ms), unit: 'ms', target: `<${goalMs} ms`, pass: created.ms < goalMs });

    results.push({ name: `mergeability of a ${WIDE_FILES.toLocaleString('en-US')}-file merge request: git processes from opening to the answer`, value: gitBefore === null || gitAfter === null ? -1 : gitAfter - gitBefore, unit: 'processes', target: '≤20', pass: gitBefore !== null && gitAfter !== null && gitAfter - gitBefore <= 20 });

    const pushed = process.hrtime.bigint();
    const commit = await api(server, 'POST', `/projects/${projectId}/repository/commits`, { branch: 'wide', commit_message: 'One more change', actions: [{ action: 'update', file_path: wideName(1), content: wideText(1, 'pushed') }] });
    if (commit.status !== 201) throw new Error(`POST repository/commits answered ${commit.status}`);
    const newHead = String(commit.json.id);
    const afterPush = await untilChecked(server, projectId, wide.iid, (mr) => mr.sha === newHead && settled(mr), pushed);
    if (afterPush.mr.merge_status !== 'can_be_merged') throw new Error(`after the push the merge request answered ${String(afterPush.mr.merge_status)}`);
    results.push({ name: `mergeability of a ${WIDE_FILES.toLocaleString('en-US')}-file merge request: push to its branch → can_be_merged again`, value: round(afterPush.ms), unit: 'ms', target: `<${goalMs} ms`, pass: afterPush.ms < goalMs });

    const conflicting = await open(server, projectId, 'conflicting', 'Change every file and the README');
    const conflicted = await untilChecked(server, projectId, conflicting.iid, settled, conflicting.started);
    if (conflicted.mr.merge_status !== 'cannot_be_merged' || conflicted.mr.has_conflicts !== true) throw new Error(`the conflicting merge request answered ${String(conflicted.mr.merge_status)}`);
    results.push({ name: `mergeability of a ${WIDE_FILES.toLocaleString('en-US')}-file merge request that conflicts: opened → cannot_be_merged`, value: round(conflicted.ms), unit: 'ms', target: `<${goalMs} ms`, pass: conflicted.ms < goalMs });

    const page = await open(server, projectId, 'five-thousand', 'Change half the lines of 50 modules');
    await untilChecked(server, projectId, page.iid, settled, page.started);
    const changesPath = `/${String(seeded.projectPath)}/-/merge_requests/${page.iid}/diffs`;
    const pageGoal = 300;
    const lines = PAGE_FILES * PAGE_CHANGED_LINES * 2;
    const cold = await timedGet(server, changesPath);
    const later: number[] = [];
    const laterGit: number[] = [];
    for (let view = 0; view < LATER_VIEWS; view += 1) {
      const { ms, git } = await timedGet(server, changesPath);
      later.push(ms);
      if (git !== null) laterGit.push(git);
    }
    const named = `Changes page of a ${lines.toLocaleString('en-US')}-line diff (${PAGE_FILES} files)`;
    results.push({ name: `${named}: first view`, value: round(cold.ms), unit: 'ms', target: `<${pageGoal} ms`, pass: cold.ms < pageGoal });
    results.push({ name: `${named}: median of ${LATER_VIEWS} later views`, value: round(median(later)), unit: 'ms', target: `<${pageGoal} ms`, pass: median(later) < pageGoal });
    const mostGit = Math.max(cold.git ?? Infinity, ...laterGit);
    results.push({ name: `${named}: git processes per view (first / later)`, value: cold.git ?? -1, unit: `first view, ${laterGit.length ? Math.max(...laterGit) : '?'} at most later`, target: '≤6 a view', pass: Number.isFinite(mostGit) && mostGit <= 6 });
    const reference = await gitReference(String(seeded.gitDir));
    results.push({ name: 'reference: one git process (rev-parse) on this machine during the run, median of 5', value: round(reference), unit: 'ms', target: 'none (load)', pass: true });
    return results;
  },
};

export default mergeRequestsScenario;
