// GET /<project>/-/archive/<ref>/<name>.<format>[?path=<dir>]: the repository (or one directory) at
// any ref as zip, tar.gz, tar.bz2 or tar, streamed from `git archive` as it is made (the API's
// archive code, repository-api/archive.ts), and the download menu that links it.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { NotFoundError } from '../../platform/errors.js';
import { html, type Html } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { ANSWERED } from '../../platform/web/page.js';
import { openArchive } from '../repository-api/archive.js';
import { readableRepository, repositoryRefs } from '../repository-api/project-repository.js';
import { splitRef } from './resolve-ref.js';
import { setRawHeaders } from '../../platform/http/raw-headers.js';
import { refPath } from './urls.js';

export const ARCHIVE_PATTERN = /^(?<path>.+?)\/-\/archive\/(?<ref>.+)\/(?<file>[^/]+)$/;
const FORMAT = /\.(zip|tar\.gz|tar\.bz2|tar)$/;
const OFFERED = ['zip', 'tar.gz', 'tar.bz2', 'tar'] as const;

export function archiveLinks(access: ProjectAccess, ref: string, path: string): Html {
  const base = `/${access.project.full_path}`;
  const name = `${access.project.path}-${ref.replace(/\//g, '-')}`;
  const link = (format: string, scope: string) =>
    html`<li><a href="${base}/-/archive/${refPath(ref)}/${encodeURIComponent(name)}.${format}${scope ? `?path=${encodeURIComponent(scope)}` : ''}" download>${format}</a></li>`;
  return html`<details class="menu"><summary class="button small secondary">Download</summary><ul class="menu-list">
<li class="muted">Source code</li>${OFFERED.map((format) => link(format, ''))}
${path ? html`<li class="muted">This directory</li>${OFFERED.map((format) => link(format, path))}` : ''}
</ul></details>`;
}

export async function downloadArchive(context: PageContext, access: ProjectAccess) {
  const format = FORMAT.exec(context.match.file)?.[1];
  const refs = await repositoryRefs(await readableRepository(context.deps, access.project));
  const split = splitRef(refs, context.match.ref);
  if (!format || !split || split.path !== '') throw new NotFoundError('Archive');
  const archive = await openArchive(context.deps, access, { sha: split.ref, format, path: context.query.path });
  const child = archive.process;
  child.stderr?.on('data', (chunk: Buffer) => context.request.log.warn({ stderr: chunk.toString() }, 'git archive reported an error'));
  // A browser that goes away stops the archive it asked for.
  context.reply.raw.on('close', () => {
    if (child.exitCode === null) child.kill();
  });
  setRawHeaders(context.reply, archive.fileName, 'application/octet-stream', 'attachment');
  context.reply.send(child.stdout);
  return ANSWERED;
}
