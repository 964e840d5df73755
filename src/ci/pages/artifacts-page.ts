// A job's artifacts on its pages (GitLab's Projects::ArtifactsController): the archive's download,
// the browser (`/-/jobs/:id/artifacts/browse/*path`: one directory of the archive at a time, read
// from the zip's central directory without inflating anything), one file's download (`…/raw/*path`,
// streamed out of the zip as the API's `…/artifacts/*artifact_path`), Keep (update_build, on a
// protected ref only for those who may push or merge there) and Delete (admin_build, Maintainers).
import { encodePathSegments as encodePath } from '../../platform/web/url-paths.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { canOnProject } from '../../platform/auth/policies/policy.js';
import { ForbiddenError, NotFoundError } from '../../platform/errors.js';
import { html, type Html } from '../../platform/web/html.js';
import { csrfField, setPageSecurityHeaders, type PageContext } from '../../platform/web/page-route.js';
import { ANSWERED, page, redirect, type PageOutcome } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import type { CiBuildRow } from '../../commit-statuses/api.js';
import { sendArchive } from '../runner-protocol-routes.js';
import { archiveEntries, availableArchive, normalisedPath, validArtifactPath } from '../jobs/artifact-entry.js';
import { deleteArtifacts, findArtifactEntry, keepArtifacts, sendEntry } from '../jobs/artifact-routes.js';
import { moment } from './status.js';
import { actionButton, jobOf, jobUrl, mayActOnJobsOf } from './shared.js';

export const JOB_ARTIFACTS_PATTERN = /^(?<path>.+?)\/-\/jobs\/(?<id>\d{1,12})\/artifacts\/(?<what>download|browse|raw)(?:\/(?<file>.*))?$/;
export const JOB_ARTIFACTS_ACTION_PATTERN = /^(?<path>.+?)\/-\/jobs\/(?<id>\d{1,12})\/artifacts\/(?<action>keep|destroy)$/;

/** The job panel's artifacts line: size, expiry, Download, Browse, and Keep and Delete for whom may. */
export function artifactsBlock(context: PageContext, access: ProjectAccess, build: CiBuildRow, archive: { size: number; expire_at: number | null }, mayUpdate: boolean): Html {
  const self = jobUrl(access, build.id);
  return html`<p class="actions" id="job-artifacts">Artifacts (${Math.max(1, Math.round(Number(archive.size) / 1024))} KiB${archive.expire_at === null ? '' : html`, kept until ${moment(Number(archive.expire_at))}`}): <a class="button secondary" href="${self}/artifacts/download">Download</a> <a class="button secondary" href="${self}/artifacts/browse">Browse</a>${
    mayUpdate && archive.expire_at !== null ? html` ${actionButton(context, `${self}/artifacts/keep`, 'Keep')}` : ''
  }${canOnProject(access, 'admin_build') ? html` <form method="post" action="${self}/artifacts/destroy" class="inline" data-confirm="Delete the artifacts of this job?">${csrfField(context)}<button type="submit" class="danger">Delete artifacts</button></form>` : ''}</p>`;
}

/** One directory of the archive: its subdirectories and files (names relative to it), sorted. */
function directoryListing(entries: Array<{ name: string; size: number }>, directory: string) {
  const prefix = directory ? `${directory}/` : '';
  const directories = new Set<string>();
  const files: Array<{ name: string; size: number }> = [];
  for (const entry of entries) {
    if (!entry.name.startsWith(prefix) || entry.name === prefix) continue;
    const rest = entry.name.slice(prefix.length);
    const slash = rest.indexOf('/');
    if (slash >= 0) directories.add(rest.slice(0, slash));
    else files.push({ name: rest, size: entry.size });
  }
  return { directories: [...directories].sort(), files: files.sort((a, b) => a.name.localeCompare(b.name)) };
}


async function browse(context: PageContext, access: ProjectAccess, build: CiBuildRow): Promise<PageOutcome> {
  const raw = context.match.file ?? '';
  if (!validArtifactPath(raw)) throw new NotFoundError('Artifacts');
  const directory = normalisedPath(raw).replace(/\/+$/, '');
  const archive = await availableArchive(context.deps, Number(build.id));
  if (!archive) throw new NotFoundError('Artifacts');
  const listing = directoryListing(archiveEntries(archive.data), directory);
  // GitLab answers 404 for a directory the archive does not have.
  if (directory && listing.directories.length === 0 && listing.files.length === 0) throw new NotFoundError('Artifacts');
  const self = jobUrl(access, build.id);
  const here = (name: string) => (directory ? `${directory}/${name}` : name);
  const parent = directory.includes('/') ? directory.slice(0, directory.lastIndexOf('/')) : '';
  const rows = [
    ...(directory ? [html`<tr><td><a href="${self}/artifacts/browse${parent ? `/${encodePath(parent)}` : ''}">..</a></td><td></td></tr>`] : []),
    ...listing.directories.map((name) => html`<tr data-directory="${name}"><td class="wrap-anywhere"><a href="${self}/artifacts/browse/${encodePath(here(name))}">${name}/</a></td><td></td></tr>`),
    ...listing.files.map((file) => html`<tr data-file="${file.name}"><td class="wrap-anywhere"><a href="${self}/artifacts/raw/${encodePath(here(file.name))}" download>${file.name}</a></td><td>${file.size} bytes</td></tr>`),
  ];
  const body = html`<p><a href="${self}">Back to the job</a> · <a class="button secondary" href="${self}/artifacts/download">Download artifacts archive</a></p>
<p class="wrap-anywhere" id="artifacts-path">Path: <code>/${directory}</code></p>
${rows.length ? html`<div class="table-scroll"><table id="artifact-files"><thead><tr><th>Name</th><th>Size</th></tr></thead><tbody>${rows}</tbody></table></div>` : html`<p class="empty">The archive lists no files.</p>`}`;
  return page({ title: `Artifacts · ${build.name} · ${access.project.name}`, heading: html`<h1 class="wrap-anywhere">Artifacts of ${build.name} <span class="muted">#${Number(build.id)}</span></h1>`, body, sidebar: projectSidebar(access, 'jobs') });
}

export async function jobArtifacts(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const build = await jobOf(context, access);
  if (context.match.what === 'browse') return browse(context, access, build);
  setPageSecurityHeaders(context.reply);
  if (context.match.what === 'download') {
    await sendArchive(context.deps, context.reply, Number(build.id));
    return ANSWERED;
  }
  const found = await findArtifactEntry(context.deps, Number(build.id), context.match.file ?? '');
  if (found === 'invalid' || found === null) throw new NotFoundError('Artifacts');
  sendEntry(context.reply, found);
  return ANSWERED;
}

/** Keep (update_build, and the ref's rule) or Delete (admin_build): the API's services. */
export async function jobArtifactsAction(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const build = await jobOf(context, access);
  const self = jobUrl(access, build.id);
  if (context.match.action === 'keep') {
    if (!(await mayActOnJobsOf(context, access, build))) throw new ForbiddenError();
    if (!(await keepArtifacts(context.deps, Number(build.id)))) throw new NotFoundError('Artifacts');
    return redirect(self, 'The artifacts will be kept.');
  }
  if (!canOnProject(access, 'admin_build')) throw new ForbiddenError();
  await deleteArtifacts(context.deps, Number(build.id));
  return redirect(self, 'The artifacts were deleted.');
}
