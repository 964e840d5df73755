// The branches of a project's repository, filtered and ordered as GitLab's BranchesFinder does, and
// presented with their commit, merge state and protection as the caller sees them.
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { NotFoundError } from '../../platform/errors.js';
import { readCommits } from './object-reader.js';
import { branchesMergedInto } from './git-reads.js';
import { branchEntity } from './entities.js';
import { BRANCH_PREFIX } from './ref-names.js';
import { compareNames, matchesSearch } from './ref-filters.js';
import { canPushToBranch, developersCan, isProtectedBranch, loadBranchRules } from './branch-rules.js';
import { readableRepository, repositoryRefs } from './project-repository.js';

export interface Branch {
  name: string;
  tip: string;
}

export interface BranchList {
  repoPath: string | null;
  branches: Branch[];
}

export const BRANCH_SORTS = ['name_asc', 'updated_asc', 'updated_desc'] as const;

export async function findBranches(deps: Deps, access: ProjectAccess, filters: { search?: string; sort?: string }): Promise<BranchList> {
  const repoPath = await readableRepository(deps, access.project);
  const refs = await repositoryRefs(repoPath);
  let branches = [...refs]
    .filter(([ref]) => ref.startsWith(BRANCH_PREFIX))
    .map(([ref, tip]) => ({ name: ref.slice(BRANCH_PREFIX.length), tip }))
    .filter((branch) => matchesSearch(branch.name, filters.search))
    .sort((a, b) => compareNames(a.name, b.name));
  if (repoPath && (filters.sort === 'updated_asc' || filters.sort === 'updated_desc')) {
    const commits = await readCommits(repoPath, branches.map((branch) => branch.tip));
    const time = (branch: Branch) => commits.get(branch.tip)?.committer.seconds ?? 0;
    branches = branches.sort((a, b) => (filters.sort === 'updated_asc' ? time(a) - time(b) : time(b) - time(a)));
  }
  return { repoPath, branches };
}

export async function findBranch(deps: Deps, access: ProjectAccess, name: string): Promise<BranchList> {
  const repoPath = await readableRepository(deps, access.project);
  const tip = (await repositoryRefs(repoPath)).get(`${BRANCH_PREFIX}${name}`);
  if (!repoPath || !tip) throw new NotFoundError('Branch');
  return { repoPath, branches: [{ name, tip }] };
}

/** Branch entities for `branches` of the list (one page of it). */
export async function presentBranches(deps: Deps, access: ProjectAccess, list: BranchList, branches: Branch[]) {
  const { repoPath } = list;
  if (!repoPath || branches.length === 0) return [];
  const context = { baseUrl: deps.config.baseUrl, project: access.project };
  const refs = await repositoryRefs(repoPath);
  const root = refs.get(`${BRANCH_PREFIX}${access.project.default_branch}`);
  const [commits, merged, rules] = await Promise.all([
    readCommits(repoPath, branches.map((branch) => branch.tip)),
    root ? branchesMergedInto(repoPath, root) : Promise.resolve(new Set<string>()),
    loadBranchRules(deps, access),
  ]);
  return branches.flatMap((branch) => {
    const commit = commits.get(branch.tip);
    if (!commit) return [];
    return [
      branchEntity(context, branch.name, commit, {
        // A branch at the default branch's own commit is not "merged" (merged_branch_names leaves identical ones out).
        merged: merged.has(`${BRANCH_PREFIX}${branch.name}`) && branch.tip !== root,
        protected: isProtectedBranch(rules, branch.name, false),
        developersCanPush: developersCan(rules, branch.name, 'push'),
        developersCanMerge: developersCan(rules, branch.name, 'merge'),
        canPush: canPushToBranch(rules, branch.name, false),
      }),
    ];
  });
}
