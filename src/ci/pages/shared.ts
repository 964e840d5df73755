// What the CI pages share: where they live under a project, the commits and users a page of
// pipelines names (read once for the page), and the latest jobs of pipelines for their stages.
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess, ProjectRow } from '../../platform/auth/subjects.js';
import { html, type Html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { readableRepository, readCommits, type CommitObject } from '../../repositories/api.js';
import type { CiPipelineRow } from '../../commit-statuses/api.js';
import { usersById } from '../../issues/api.js';
import { NotFoundError } from '../../platform/errors.js';
import { findBuild } from '../finder.js';
import type { CiBuildRow } from '../../commit-statuses/api.js';
import { canOnProject } from '../../platform/auth/policies/policy.js';
import type { AuthUser } from '../../platform/auth/principal.js';
import { mayUpdateRef } from '../jobs/protected-ref-access.js';

export const projectBase = (access: ProjectAccess) => `/${access.project.full_path}`;
export const pipelineUrl = (access: ProjectAccess, id: number | string) => `${projectBase(access)}/-/pipelines/${Number(id)}`;
export const jobUrl = (access: ProjectAccess, id: number | string) => `${projectBase(access)}/-/jobs/${Number(id)}`;

export async function commitsOf(deps: Deps, project: ProjectRow, shas: string[]): Promise<Map<string, CommitObject>> {
  const path = shas.length ? await readableRepository(deps, project) : null;
  return path ? readCommits(path, shas) : new Map();
}

export function usersOf(deps: Deps, ids: Array<number | null>) {
  return usersById(deps.db, ids);
}

export function userLink(user: { username: string; name: string } | undefined): Html {
  return user ? html`<a href="/${user.username}">${user.name}</a>` : html`<span class="muted">API</span>`;
}

export function commitLink(access: ProjectAccess, pipeline: CiPipelineRow, commit: CommitObject | undefined): Html {
  const title = commit?.message.split('\n')[0] ?? '';
  return html`<a href="${projectBase(access)}/-/commit/${pipeline.sha}" class="commit-sha"><code>${pipeline.sha.slice(0, 8)}</code></a>${title ? html` <span class="commit-title">${title}</span>` : ''}`;
}

export function refLink(access: ProjectAccess, ref: string | null, tag: boolean): Html {
  if (ref === null) return html``;
  return html`<a class="ref-name" href="${projectBase(access)}/-/${tag ? 'tags' : 'tree'}/${ref}"><code>${ref}</code></a>`;
}

/**
 * Whether the page offers Play, Retry and Cancel on a ref's jobs and pipelines: update_build, and on a
 * protected ref the right to push or merge there (a tag: to create it), which the API's routes check
 * before acting. So a Developer sees no button that would answer 403.
 */
export async function mayActOnJobsOf(context: PageContext, access: ProjectAccess, ref: { ref: string | null; tag: number | boolean }): Promise<boolean> {
  return canOnProject(access, 'update_build') && (await mayUpdateRef(context.deps, access.project, (context.user as AuthUser | null) ?? null, ref));
}

/** A POST button (CSRF field included): retry, cancel, play. */
export function actionButton(context: PageContext, action: string, label: string, kind: 'secondary' | 'danger' | '' = 'secondary'): Html {
  return html`<form method="post" action="${action}" class="inline">${csrfField(context)}<button type="submit"${kind ? html` class="${kind}"` : ''}>${label}</button></form>`;
}

/** The latest (not retried) jobs of some pipelines, in stage and id order. */
export function latestJobs(deps: Deps, pipelineIds: number[]) {
  return deps.db
    .selectFrom('ci_builds')
    .select(['id', 'commit_id', 'name', 'stage', 'stage_idx', 'status', 'allow_failure'])
    .where('commit_id', 'in', pipelineIds.length ? pipelineIds : [0])
    .where('retried', '=', 0)
    .orderBy('stage_idx')
    .orderBy('id')
    .execute();
}

/** A job of the page's project (not a commit status), or the 404 page. */
export async function jobOf(context: PageContext, access: ProjectAccess): Promise<CiBuildRow> {
  const build = await findBuild(context.deps.db, Number(access.project.id), Number(context.match.id));
  if (!build || build.type !== 'Ci::Build') throw new NotFoundError('Job');
  return build;
}
