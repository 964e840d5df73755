// Who may write to a merge request's source branch (GitLab's Gitlab::UserAccess#can_push_to_branch? on
// the source project): whoever may push there, and — for a merge request from a fork with
// `allow_collaboration` — whoever may merge it into its target branch (Project#branch_allows_collaboration?:
// the upstream's maintainers may push to the fork's branch, rebase it, and delete it after the merge).
// Collaboration is possible only where GitLab allows it (MergeRequest#collaborative_push_possible?):
// neither project private, the fork's branch not protected.
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import { canMergeToBranch, matchesBranch } from '../repositories/api.js';
import type { MergeRequestRow } from './entities.js';
import { fullProject } from './finder.js';

/** The merge request comes from another project of the fork network than its target. */
export function fromFork(mr: Pick<MergeRequestRow, 'source_project_id' | 'target_project_id'>): boolean {
  return mr.source_project_id !== null && Number(mr.source_project_id) !== Number(mr.target_project_id);
}

/** The project the source branch lives in: the target itself, or the fork (null once the fork is gone). */
export async function sourceProjectOf(deps: Deps, mr: MergeRequestRow, target: ProjectRow): Promise<ProjectRow | null> {
  if (!fromFork(mr)) return target;
  return (await fullProject(deps.db, Number(mr.source_project_id))) ?? null;
}

/** The visibility half of collaborative_push_possible?: another project, neither of the two private. */
function visibleBoth(target: ProjectRow, source: ProjectRow): boolean {
  return Number(source.id) !== Number(target.id) && target.visibility !== 'private' && source.visibility !== 'private';
}

/** MergeRequest#collaborative_push_possible?: from a fork, neither project private, the source branch unprotected. */
async function collaborativePushPossible(deps: Deps, branch: string, target: ProjectRow, source: ProjectRow): Promise<boolean> {
  if (!visibleBoth(target, source)) return false;
  const rules = await deps.db.selectFrom('protected_branches').select('name').where('project_id', '=', Number(source.id)).execute();
  return !rules.some((rule) => matchesBranch(rule.name, branch));
}

/**
 * MergeRequest#allow_collaboration for a page of merge requests (what the entity shows): the flag, and
 * collaboration possible. The protected branches of all their source projects are read in one query.
 * Answers the ids of the merge requests that allow collaboration.
 */
export async function collaborationAllowed(deps: Deps, rows: MergeRequestRow[], projects: Map<number, ProjectRow>): Promise<Set<number>> {
  const candidates = rows.filter((mr) => {
    if (!fromFork(mr) || Number(mr.allow_collaboration) !== 1) return false;
    const target = projects.get(Number(mr.target_project_id));
    const source = projects.get(Number(mr.source_project_id));
    return target !== undefined && source !== undefined && visibleBoth(target, source);
  });
  const allowed = new Set<number>();
  if (candidates.length === 0) return allowed;
  const sourceIds = [...new Set(candidates.map((mr) => Number(mr.source_project_id)))];
  const rules = await deps.db.selectFrom('protected_branches').select(['project_id', 'name']).where('project_id', 'in', sourceIds).execute();
  for (const mr of candidates) {
    const protectedHere = rules.some((rule) => Number(rule.project_id) === Number(mr.source_project_id) && matchesBranch(rule.name, mr.source_branch));
    if (!protectedHere) allowed.add(Number(mr.id));
  }
  return allowed;
}

/** can_push_to_branch? on the source branch, collaboration included. */
export async function mayWriteSourceBranch(deps: Deps, user: AuthUser, mr: MergeRequestRow, target: ProjectRow, source: ProjectRow): Promise<boolean> {
  if (await canMergeToBranch(deps, source, user, mr.source_branch)) return true;
  if (!fromFork(mr) || Number(mr.allow_collaboration) !== 1 || !(await collaborativePushPossible(deps, mr.source_branch, target, source))) return false;
  return canMergeToBranch(deps, target, user, mr.target_branch);
}

/**
 * The branches of `fork` that `user` may push to through collaboration: the source branches of its open
 * merge requests that allow it, into targets the user may merge into. Asked by git's access check
 * when the user may not push to the fork otherwise.
 */
export async function collaborationBranches(deps: Deps, fork: ProjectRow, user: AuthUser): Promise<string[]> {
  if (fork.visibility === 'private') return [];
  const open = await deps.db
    .selectFrom('merge_requests')
    .select(['source_branch', 'target_project_id', 'target_branch'])
    .where('source_project_id', '=', Number(fork.id))
    .where('target_project_id', '<>', Number(fork.id))
    .where('state', '=', 'opened')
    .where('allow_collaboration', '=', 1)
    .limit(100)
    .execute();
  const branches = new Set<string>();
  const targets = new Map<number, ProjectRow | null>();
  for (const row of open) {
    if (branches.has(row.source_branch)) continue;
    const targetId = Number(row.target_project_id);
    if (!targets.has(targetId)) targets.set(targetId, (await fullProject(deps.db, targetId)) ?? null);
    const target = targets.get(targetId);
    if (!target || !(await collaborativePushPossible(deps, row.source_branch, target, fork))) continue;
    if (await canMergeToBranch(deps, target, user, row.target_branch)) branches.add(row.source_branch);
  }
  return [...branches];
}
