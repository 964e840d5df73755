// Wire shapes of releases (GitLab's Entities::Release, Releases::Link, Releases::Evidence,
// MilestoneWithStats), fields listed explicitly in GitLab's order. Readers without download_code
// (a private project's Guests) get no tag, commit, sources or evidence, as GitLab hides them.
import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { canOnProject } from '../platform/auth/policies/index.js';
import { isoTime } from '../platform/clock.js';
import { projectWebUrl, userBasic } from '../accounts/api.js';
import { commitEntity, findCommit, readableRepository } from '../repositories/api.js';
import { renderGitlabMarkdown } from '../markdown/api.js';
import { milestoneEntity } from '../milestones/api.js';
import { releaseParts, type ReleaseEvidenceRow, type ReleaseLinkRow, type ReleaseParts, type ReleaseRow } from './finder.js';

const SOURCE_FORMATS = ['zip', 'tar.gz', 'tar.bz2', 'tar'] as const;

export function releaseWebUrl(baseUrl: string, fullPath: string, tagName: string): string {
  return `${projectWebUrl(baseUrl, fullPath)}/-/releases/${encodeURIComponent(tagName)}`;
}

export function linkEntity(baseUrl: string, fullPath: string, tagName: string, link: ReleaseLinkRow) {
  return {
    id: Number(link.id),
    name: link.name,
    url: link.url,
    // A direct asset path is served by Kiln as a redirect to the link's URL (release-downloads page).
    direct_asset_url: link.filepath ? `${releaseWebUrl(baseUrl, fullPath, tagName)}/downloads${link.filepath}` : link.url,
    link_type: link.link_type,
  };
}

export function evidenceEntity(baseUrl: string, fullPath: string, tagName: string, evidence: ReleaseEvidenceRow) {
  return {
    sha: evidence.summary_sha,
    filepath: `${releaseWebUrl(baseUrl, fullPath, tagName)}/evidences/${Number(evidence.id)}.json`,
    collected_at: isoTime(evidence.created_at),
  };
}

export interface PresentOptions {
  /** `include_html_description`: the description rendered as GitLab Flavored Markdown. */
  html?: boolean;
}

async function presentOne(deps: Deps, access: ProjectAccess, release: ReleaseRow, parts: ReleaseParts, repoPath: string | null, authors: Map<number, any>, options: PresentOptions) {
  const { baseUrl } = deps.config;
  const project = access.project;
  const web = projectWebUrl(baseUrl, project.full_path);
  const code = canOnProject(access, 'download_code');
  const commit = code && repoPath && release.sha ? await findCommit(repoPath, release.sha) : null;
  const links = (parts.links.get(Number(release.id)) ?? []).map((link) => linkEntity(baseUrl, project.full_path, release.tag_name, link));
  const sources = code ? SOURCE_FORMATS.map((format) => ({ format, url: `${web}/-/archive/${encodeURIComponent(release.tag_name)}/${project.path}-${release.tag_name.replace(/\//g, '-')}.${format}` })) : undefined;
  const milestones = canOnProject(access, 'read_milestone') ? parts.milestones.get(Number(release.id)) ?? [] : [];
  const evidences = parts.evidences.get(Number(release.id)) ?? [];
  const author = release.author_id === null ? undefined : authors.get(Number(release.author_id));
  const self = releaseWebUrl(baseUrl, project.full_path, release.tag_name);
  const tagQuery = `release_tag=${encodeURIComponent(release.tag_name)}&scope=all`;
  return {
    name: release.name,
    ...(code ? { tag_name: release.tag_name } : {}),
    description: release.description,
    ...(options.html ? { description_html: await renderGitlabMarkdown(deps, release.description, { project: access }) } : {}),
    created_at: isoTime(release.created_at),
    released_at: isoTime(release.released_at),
    ...(author ? { author: userBasic(baseUrl, author) } : {}),
    ...(code ? { commit: commit ? commitEntity({ baseUrl, project }, commit) : null } : {}),
    upcoming_release: Number(release.released_at) > deps.clock.now(),
    ...(milestones.length ? {
      milestones: milestones.map((row) => ({ ...milestoneEntity(baseUrl, row, row.group_full_path === null ? { kind: 'project', fullPath: project.full_path } : { kind: 'group', fullPath: row.group_full_path }, deps.clock.now()), issue_stats: { total: row.issues_total, closed: row.issues_closed } })),
    } : {}),
    ...(release.sha ? { commit_path: `/${project.full_path}/-/commit/${release.sha}` } : {}),
    tag_path: `/${project.full_path}/-/tags/${encodeURIComponent(release.tag_name)}`,
    assets: {
      count: links.length + (sources?.length ?? 0),
      ...(sources ? { sources } : {}),
      links,
    },
    ...(code ? { evidences: evidences.map((evidence) => evidenceEntity(baseUrl, project.full_path, release.tag_name, evidence)) } : {}),
    _links: {
      closed_issues_url: `${web}/-/issues?${tagQuery}&state=closed`,
      closed_merge_requests_url: `${web}/-/merge_requests?${tagQuery}&state=closed`,
      ...(canOnProject(access, 'update_release') ? { edit_url: `${self}/edit` } : {}),
      merged_merge_requests_url: `${web}/-/merge_requests?${tagQuery}&state=merged`,
      opened_issues_url: `${web}/-/issues?${tagQuery}&state=opened`,
      opened_merge_requests_url: `${web}/-/merge_requests?${tagQuery}&state=opened`,
      self,
    },
  };
}

/** Releases of one project as the caller sees them. */
export async function presentReleases(deps: Deps, access: ProjectAccess, releases: ReleaseRow[], options: PresentOptions = {}) {
  const parts = await releaseParts(deps.db, releases);
  const repoPath = releases.length ? await readableRepository(deps, access.project) : null;
  const authorIds = [...new Set(releases.map((release) => release.author_id).filter((id) => id !== null).map(Number))];
  const authors = new Map((authorIds.length ? await deps.db.selectFrom('users').selectAll().where('id', 'in', authorIds).execute() : []).map((user) => [Number(user.id), user]));
  const presented = [];
  for (const release of releases) presented.push(await presentOne(deps, access, release, parts, repoPath, authors, options));
  return presented;
}

export async function presentRelease(deps: Deps, access: ProjectAccess, release: ReleaseRow, options: PresentOptions = {}) {
  return (await presentReleases(deps, access, [release], options))[0];
}
