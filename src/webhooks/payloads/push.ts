// Push Hook and Tag Push Hook payloads (Gitlab::DataBuilder::Push): the ref's before and after ids,
// its newest 20 commits oldest first, and how many there were in all.
import type { Deps } from '../../platform/deps.js';
import { readableRepository, runCommand } from '../../repositories/api.js';
import { projectAttrs, projectForHook, pushRepositoryAttrs, usersForHook, avatarOf } from './common.js';

const BLANK = '0000000000000000000000000000000000000000';
const COMMIT_LIMIT = 20;
const SEP = '\u001f';
const END = '\u001e';

export interface PushInput {
  projectId: number;
  actorId: number | null;
  ref: string;
  before: string | null;
  after: string | null;
}

interface Commit {
  id: string;
  message: string;
  title: string;
  timestamp: string;
  url: string;
  author: { name: string; email: string };
  added: string[];
  modified: string[];
  removed: string[];
}

async function listCommits(repoPath: string, range: string[], webUrl: string): Promise<{ commits: Commit[]; total: number }> {
  const git = (args: string[]) => runCommand('git', ['--git-dir', repoPath, ...args]);
  const total = Number((await git(['rev-list', '--count', ...range]).catch(() => '0')).trim()) || 0;
  if (total === 0) return { commits: [], total };
  const log = await git(['log', `-${COMMIT_LIMIT}`, '--name-status', `--format=${END}%H${SEP}%an${SEP}%ae${SEP}%aI${SEP}%B${SEP}`, ...range]);
  const commits: Commit[] = [];
  for (const chunk of log.split(END).slice(1)) {
    const [id, name, email, date, message, files = ''] = chunk.split(SEP);
    const added: string[] = [];
    const modified: string[] = [];
    const removed: string[] = [];
    for (const line of files.split('\n')) {
      const [status, ...paths] = line.split('\t');
      if (!status) continue;
      if (status.startsWith('A')) added.push(paths[0]);
      else if (status.startsWith('D')) removed.push(paths[0]);
      else if (status.startsWith('R')) {
        removed.push(paths[0]);
        added.push(paths[1]);
      } else modified.push(paths[0]);
    }
    commits.push({ id, message, title: message.split('\n')[0], timestamp: date, url: `${webUrl}/-/commit/${id}`, author: { name, email }, added, modified, removed });
  }
  return { commits: commits.reverse(), total };
}

export async function pushHookData(deps: Deps, input: PushInput) {
  const project = await projectForHook(deps, input.projectId);
  if (!project) return null;
  const tag = input.ref.startsWith('refs/tags/');
  const attrs = projectAttrs(deps, project);
  let commits: Commit[] = [];
  let total = 0;
  if (input.after && !tag) {
    const repoPath = await readableRepository(deps, { id: project.id, default_branch: project.default_branch } as never);
    if (repoPath) {
      // A new branch lists the commits no other branch had; an update the ones since `before`.
      const range = input.before ? [input.after, `^${input.before}`] : [input.after, ...(await otherBranches(repoPath, input.ref))];
      ({ commits, total } = await listCommits(repoPath, range, attrs.web_url));
    }
  }
  const users = await usersForHook(deps, [input.actorId]);
  const user = input.actorId === null ? undefined : users.get(input.actorId);
  return {
    object_kind: tag ? 'tag_push' : 'push',
    event_name: tag ? 'tag_push' : 'push',
    before: input.before ?? BLANK,
    after: input.after ?? BLANK,
    ref: input.ref,
    ref_protected: false,
    checkout_sha: input.after,
    message: null,
    user_id: user?.id ?? null,
    user_name: user?.name ?? null,
    user_username: user?.username ?? null,
    user_email: user?.email ?? null,
    user_avatar: user ? avatarOf(deps, user) : null,
    project_id: Number(project.id),
    project: attrs,
    commits,
    total_commits_count: total,
    push_options: {},
    repository: pushRepositoryAttrs(deps, project),
  };
}

/** `^<id>` for every other branch: a new branch's commits are those none of the others has. */
async function otherBranches(repoPath: string, ref: string): Promise<string[]> {
  const out = await runCommand('git', ['--git-dir', repoPath, 'for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads/']);
  return out.split('\n').filter(Boolean).map((line) => line.split(' ')).filter(([, name]) => name !== ref).map(([oid]) => `^${oid}`);
}
