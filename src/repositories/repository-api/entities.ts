// The repository API's wire shapes (GitLab's lib/api/entities: Commit, CommitDetail, CommitStats,
// Branch, Tag, TreeObject, Compare, Diff, Contributor, BlameRange, BasicRef), fields explicit.
import type { ProjectRow } from '../../platform/auth/subjects.js';
import { projectWebUrl } from '../../accounts/api.js';
import { fullTitle, gitlabTime, parseTrailers, type CommitObject, type TagObject } from './git-objects.js';
import type { TreeEntry } from './tree-entries.js';
import { baseName } from './tree-entries.js';
import type { FileDiff } from './diffs.js';

export interface ProjectContext {
  baseUrl: string;
  project: ProjectRow;
}

export interface CommitStats {
  additions: number;
  deletions: number;
  total: number;
}

export function commitEntity(context: ProjectContext, commit: CommitObject, options: { trailers?: boolean } = {}) {
  const trailers = options.trailers ? parseTrailers(commit.message) : {};
  return {
    id: commit.id,
    short_id: commit.id.slice(0, 8),
    created_at: gitlabTime(commit.committer),
    parent_ids: commit.parents,
    title: fullTitle(commit.message),
    message: commit.message,
    author_name: commit.author.name,
    author_email: commit.author.email,
    authored_date: gitlabTime(commit.author),
    committer_name: commit.committer.name,
    committer_email: commit.committer.email,
    committed_date: gitlabTime(commit.committer),
    trailers,
    extended_trailers: Object.fromEntries(Object.entries(trailers).map(([key, value]) => [key, [value]])),
    web_url: `${projectWebUrl(context.baseUrl, context.project.full_path)}/-/commit/${commit.id}`,
  };
}

/** The commit of a list with `with_stats=true` (Entities::CommitWithStats). */
export function commitWithStatsEntity(context: ProjectContext, commit: CommitObject, stats: CommitStats, options: { trailers?: boolean } = {}) {
  return { ...commitEntity(context, commit, options), stats };
}

/** Entities::CommitDetail: Kiln runs no pipelines, so `status` and `last_pipeline` are null. */
export function commitDetailEntity(context: ProjectContext, commit: CommitObject, stats: CommitStats | null) {
  return {
    ...commitEntity(context, commit),
    ...(stats ? { stats } : {}),
    status: null,
    project_id: Number(context.project.id),
    last_pipeline: null,
  };
}

export interface BranchFacts {
  merged: boolean;
  protected: boolean;
  developersCanPush: boolean;
  developersCanMerge: boolean;
  canPush: boolean;
}

export function branchEntity(context: ProjectContext, name: string, commit: CommitObject, facts: BranchFacts) {
  return {
    name,
    commit: commitEntity(context, commit),
    merged: facts.merged,
    protected: facts.protected,
    developers_can_push: facts.developersCanPush,
    developers_can_merge: facts.developersCanMerge,
    can_push: facts.canPush,
    default: context.project.default_branch === name,
    web_url: `${projectWebUrl(context.baseUrl, context.project.full_path)}/-/tree/${name}`,
  };
}

/** GitLab's TagRelease: the tag's release as its notes, or null when the tag has none (or the caller may not read releases). */
export interface TagFacts {
  release: { tag_name: string; description: string } | null;
  protected: boolean;
}

export function tagEntity(context: ProjectContext, name: string, target: string, commit: CommitObject, annotation: TagObject | null, facts: TagFacts) {
  return {
    name,
    message: annotation ? annotation.message.replace(/\n$/, '') : '',
    target,
    commit: commitEntity(context, commit),
    release: facts.release,
    protected: facts.protected,
    created_at: annotation?.tagger ? gitlabTime(annotation.tagger) : null,
  };
}

export function treeObjectEntity(entry: TreeEntry) {
  return { id: entry.id, name: baseName(entry.path), type: entry.type, path: entry.path, mode: entry.mode };
}

export function diffEntity(diff: FileDiff) {
  return {
    diff: diff.diff,
    new_path: diff.new_path,
    old_path: diff.old_path,
    a_mode: diff.a_mode,
    b_mode: diff.b_mode,
    new_file: diff.new_file,
    renamed_file: diff.renamed_file,
    deleted_file: diff.deleted_file,
    generated_file: diff.generated_file,
  };
}

export function compareEntity(context: ProjectContext, compare: { commits: CommitObject[]; diffs: FileDiff[]; same: boolean; fromId: string; toId: string }) {
  const commits = compare.commits.map((commit) => commitEntity(context, commit));
  return {
    commit: commits.length > 0 ? commits[commits.length - 1] : null,
    commits,
    diffs: compare.diffs.map(diffEntity),
    compare_timeout: false,
    compare_same_ref: compare.same,
    web_url: `${projectWebUrl(context.baseUrl, context.project.full_path)}/-/compare/${compare.fromId}...${compare.toId}`,
  };
}

/** Kiln, like GitLab since Gitaly, counts commits only: additions and deletions are 0. */
export function contributorEntity(contributor: { name: string; email: string; commits: number }) {
  return { name: contributor.name, email: contributor.email, commits: contributor.commits, additions: 0, deletions: 0 };
}

export function blameRangeEntity(context: ProjectContext, commit: CommitObject, lines: string[]) {
  return { commit: commitEntity(context, commit), lines };
}

export function basicRefEntity(ref: { type: 'branch' | 'tag'; name: string }) {
  return { type: ref.type, name: ref.name };
}
