// What `rules:changes` and `rules:exists` look at (GitLab's Build::Rules::Rule::Clause::Changes and
// ::Exists), read once per pipeline with git plumbing and only when a rule asks:
//   - changes: the paths a push changed (its before-SHA to the new head, from their merge base), a
//     merge request pipeline's diff (its diff base to its head), or with `compare_to` those changed
//     since that ref's commit; where there is nothing to compare (a new branch, a tag, the API, a
//     schedule, a trigger) every `changes` holds, as in GitLab;
//   - exists: the files of the commit's tree; after 10,000 comparisons without a match it holds
//     (GitLab's MAX_PATTERN_COMPARISONS), and a tree of more than MAX_TREE_PATHS files is not read.
import type { CiConfig, CiRule } from '../config/parse-config.js';
import { fnmatch, isGlob } from '../config/glob.js';
import { expandVariables } from '../variables.js';
import { findCommit, gitCall, ZERO_OID } from '../../repositories/api.js';
import { treePaths } from './read-yaml.js';

const MAX_PATTERN_COMPARISONS = 10_000;
const MAX_TREE_PATHS = 100_000;
const MAX_CHANGED_PATHS = 100_000;

export interface RuleFiles {
  /** Paths the pipeline changed; null: nothing to compare, so `changes` holds. */
  modified: string[] | null;
  /** The paths changed since each `compare_to` ref's commit. */
  since: Map<string, string[]>;
  /** The commit's files; null: not read, so `exists` holds. */
  tree: string[] | null;
  /** `exists:project`'s files, by otherTreeKey (the project and ref with variables expanded). */
  otherTrees: Map<string, string[]>;
}

/** A rule clause that cannot be evaluated (GitLab's Rules::Rule::Clause::ParseError): the pipeline fails with it. */
export class RuleClauseError extends Error {}

/**
 * The files of another project at a ref (default: its default branch) as the pipeline's user, for
 * `exists:project`; throws RuleClauseError with GitLab's message for a project the user cannot read
 * or a ref that names no commit.
 */
export type OtherProjectTree = (projectPath: string, ref: string | undefined) => Promise<string[]>;

const otherTreeKey = (rule: CiRule, variables: Record<string, string>) => JSON.stringify([expandVariables(rule.existsProject ?? '', variables), rule.existsRef === undefined ? null : expandVariables(rule.existsRef, variables)]);

/** `changes` globs (variables expanded) against the changed paths. */
export function changesHold(globs: string[], compareTo: string | undefined, files: RuleFiles | undefined, variables: Record<string, string>): boolean {
  if (!files) return true;
  const paths = compareTo === undefined ? files.modified : (files.since.get(compareTo) ?? null);
  if (paths === null) return true;
  const patterns = globs.map((glob) => expandVariables(glob, variables));
  return paths.some((path) => patterns.some((pattern) => fnmatch(pattern, path)));
}

/** `exists` globs (variables expanded) against the commit's files, bounded. */
export function existsHold(rule: CiRule, files: RuleFiles | undefined, variables: Record<string, string>): boolean {
  const globs = rule.exists ?? [];
  if (rule.existsProject !== undefined && globs.length === 0) return false;
  const tree = !files ? null : rule.existsProject !== undefined ? (files.otherTrees.get(otherTreeKey(rule, variables)) ?? []) : files.tree;
  if (tree === null) return true;
  const patterns = globs.map((glob) => expandVariables(glob, variables).replace(/^\/+/, ''));
  if (patterns.some((pattern) => !isGlob(pattern) && tree.includes(pattern))) return true;
  let comparisons = 0;
  return patterns.filter(isGlob).some((pattern) => tree.some((path) => {
    comparisons += 1;
    return comparisons > MAX_PATTERN_COMPARISONS || fnmatch(pattern, path);
  }));
}

function rulesOf(config: CiConfig): CiRule[] {
  return [...(config.workflowRules ?? []), ...config.jobs.flatMap((job) => job.rules ?? [])];
}

async function diffNames(repoPath: string, range: string[]): Promise<string[] | null> {
  const outcome = await gitCall(repoPath, ['diff', '--name-only', '--no-renames', '-z', ...range, '--']);
  if (outcome.code !== 0) return null;
  return outcome.stdout.toString('utf8').split('\0').filter((path) => path !== '').slice(0, MAX_CHANGED_PATHS);
}

/**
 * The files the configuration's rules need, null when none asks. A `compare_to` that names no commit
 * is GitLab's `rules:changes:compare_to is not a valid ref` (CompareToError).
 */
export async function readRuleFiles(
  repoPath: string,
  config: CiConfig,
  facts: { sha: string; beforeSha: string | null; tag: boolean; source: string; diffBaseSha?: string; variables?: Record<string, string> },
  otherProjectTree?: OtherProjectTree,
): Promise<RuleFiles | null> {
  const rules = rulesOf(config);
  const wantsChanges = rules.some((rule) => rule.changes !== undefined) || config.jobs.some((job) => job.only?.changes !== undefined || job.except?.changes !== undefined);
  const wantsExists = rules.some((rule) => rule.exists !== undefined && rule.existsProject === undefined);
  const wantsOther = rules.some((rule) => rule.existsProject !== undefined);
  if (!wantsChanges && !wantsExists && !wantsOther) return null;
  let modified: string[] | null = null;
  if (wantsChanges) {
    if (facts.source === 'merge_request_event' && facts.diffBaseSha) modified = await diffNames(repoPath, [facts.diffBaseSha, facts.sha]);
    else if (facts.source === 'push' && !facts.tag && facts.beforeSha && facts.beforeSha !== ZERO_OID) modified = await diffNames(repoPath, [`${facts.beforeSha}...${facts.sha}`]);
  }
  const since = new Map<string, string[]>();
  for (const ref of new Set(rules.map((rule) => rule.compareTo).filter((ref): ref is string => ref !== undefined))) {
    const commit = /[\s\0]/.test(ref) ? null : await findCommit(repoPath, ref);
    const paths = commit ? await diffNames(repoPath, [commit.id, facts.sha]) : null;
    if (!paths) throw new RuleClauseError('rules:changes:compare_to is not a valid ref');
    since.set(ref, paths);
  }
  let tree: string[] | null = null;
  if (wantsExists) {
    // A tree too big is not read (null: `exists` holds); a missing commit has no files.
    const paths = await treePaths(repoPath, facts.sha, MAX_TREE_PATHS);
    tree = paths === null ? ((await findCommit(repoPath, facts.sha)) ? null : []) : paths;
  }
  // Another project's files, read once per project and ref, expanded with the variables the rule is
  // evaluated with (select-jobs.ts: the file's, the job's, then the pipeline's).
  const otherTrees = new Map<string, string[]>();
  const pipeline = facts.variables ?? {};
  const scoped = [
    ...(config.workflowRules ?? []).map((rule) => ({ rule, variables: { ...config.variables, ...pipeline } })),
    ...config.jobs.flatMap((job) => (job.rules ?? []).map((rule) => ({ rule, variables: { ...config.variables, ...job.variables, ...pipeline } }))),
  ];
  for (const { rule, variables } of scoped) {
    if (rule.existsProject === undefined || !rule.exists?.length || !otherProjectTree) continue;
    const key = otherTreeKey(rule, variables);
    if (!otherTrees.has(key)) otherTrees.set(key, await otherProjectTree(expandVariables(rule.existsProject, variables), rule.existsRef === undefined ? undefined : expandVariables(rule.existsRef, variables)));
  }
  return { modified, since, tree, otherTrees };
}
