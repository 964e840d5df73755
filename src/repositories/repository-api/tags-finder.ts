// The tags of a project's repository (GitLab's TagsFinder): filtered by name, ordered by name,
// version or the date of the tagged commit, presented with their commit and annotation.
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { NotFoundError } from '../../platform/errors.js';
import { readObjects } from './object-reader.js';
import { parseCommitObject, parseTagObject, type CommitObject, type TagObject } from './git-objects.js';
import { tagEntity } from './entities.js';
import { TAG_PREFIX } from './ref-names.js';
import { compareNames, compareVersions, matchesSearch } from './ref-filters.js';
import { readableRepository, repositoryRefs } from './project-repository.js';
import { canOnProject } from '../../platform/auth/policies/policy.js';
import { projectTagRules, tagRulesMatching } from '../protected-branches/tag-finder.js';

export interface Tag {
  name: string;
  /** The tag object of an annotated tag, the commit of a lightweight one. */
  target: string;
  annotation: TagObject | null;
  commit: CommitObject;
}

/** Each tag with what it points at, peeled to its commit; tags of anything but commits are left out. */
async function readTags(repoPath: string, refs: [string, string][]): Promise<Tag[]> {
  const [targets, commits] = await Promise.all([
    readObjects(repoPath, refs.map(([, id]) => id)),
    readObjects(repoPath, refs.map(([, id]) => `${id}^{commit}`)),
  ]);
  return refs.flatMap(([ref, id], index) => {
    const target = targets[index];
    const commit = commits[index];
    if (!target || !commit || commit.type !== 'commit') return [];
    const annotation = target.type === 'tag' ? parseTagObject(target.id, target.content) : null;
    return [{ name: ref.slice(TAG_PREFIX.length), target: id, annotation, commit: parseCommitObject(commit.id, commit.content) }];
  });
}

export async function findTags(deps: Deps, access: ProjectAccess, filters: { search?: string; orderBy: string; sort: string }): Promise<Tag[]> {
  const repoPath = await readableRepository(deps, access.project);
  if (!repoPath) return [];
  const refs = [...(await repositoryRefs(repoPath))].filter(([ref]) => ref.startsWith(TAG_PREFIX) && matchesSearch(ref.slice(TAG_PREFIX.length), filters.search));
  const tags = await readTags(repoPath, refs);
  const order =
    filters.orderBy === 'name'
      ? (a: Tag, b: Tag) => compareNames(a.name, b.name)
      : filters.orderBy === 'version'
        ? (a: Tag, b: Tag) => compareVersions(a.name, b.name)
        : (a: Tag, b: Tag) => a.commit.committer.seconds - b.commit.committer.seconds || compareNames(a.name, b.name);
  tags.sort(order);
  return filters.sort === 'desc' ? tags.reverse() : tags;
}

export async function findTag(deps: Deps, access: ProjectAccess, name: string): Promise<Tag> {
  const repoPath = await readableRepository(deps, access.project);
  const id = (await repositoryRefs(repoPath)).get(`${TAG_PREFIX}${name}`);
  const tag = repoPath && id ? (await readTags(repoPath, [[`${TAG_PREFIX}${name}`, id]]))[0] : undefined;
  if (!tag) throw new NotFoundError('Tag');
  return tag;
}

/** Each tag's release notes (GitLab's TagRelease), by tag name, in one query; empty for a caller who may not read releases. */
export async function tagReleases(deps: Deps, access: ProjectAccess, names: string[]): Promise<Map<string, { tag_name: string; description: string }>> {
  if (names.length === 0 || !canOnProject(access, 'read_release')) return new Map();
  const rows = await deps.db.selectFrom('releases').select(['tag_name', 'description'])
    .where('project_id', '=', Number(access.project.id)).where('tag_name', 'in', names).execute();
  return new Map(rows.map((row) => [row.tag_name, { tag_name: row.tag_name, description: row.description ?? '' }]));
}

/** The API's Tag entities of a page of tags: releases and protected-tag rules read once for the page. */
export async function presentTags(deps: Deps, access: ProjectAccess, tags: Tag[]) {
  const [releases, rules] = await Promise.all([
    tagReleases(deps, access, tags.map((tag) => tag.name)),
    projectTagRules(deps.db, Number(access.project.id)),
  ]);
  const context = { baseUrl: deps.config.baseUrl, project: access.project };
  return tags.map((tag) => tagEntity(context, tag.name, tag.target, tag.commit, tag.annotation, {
    release: releases.get(tag.name) ?? null,
    protected: tagRulesMatching(rules, tag.name).length > 0,
  }));
}
