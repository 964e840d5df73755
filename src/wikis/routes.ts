// The project wikis API (doc/api/wikis.md; lib/api/wikis.rb): pages read by Guests and readers of the
// project, written by Developers, all within wiki_access_level (`wiki_enabled`): the policy reads it,
// so a closed wiki is 403 like any ability the caller lacks. Slugs are sent URL-encoded (`dir%2Fpage`).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p, requireOneOf } from '../platform/http/params.js';
import { isUploadedFile } from '../platform/http/multipart.js';
import { NotFoundError, ParamError, StatusError } from '../platform/errors.js';
import { MAX_UPLOAD_BYTES } from '../uploads/api.js';
import { WikiChangedError } from '../repositories/api.js';
import { findPageRef, loadPage, pagesOf, wikiSnapshot, type WikiPage } from './finder.js';
import { wikiPageBasic, wikiPageEntity } from './entities.js';
import { FORMATS, type WikiFormat } from './page-names.js';
import { MAX_CONTENT_BYTES } from './page-rules.js';
import { renderPage } from './render-page.js';
import { createPage } from './create-page.js';
import { updatePage } from './update-page.js';
import { deletePage } from './delete-page.js';
import { uploadAttachment } from './upload-attachment.js';

const TAGS = ['wikis'];
const READ = { project: 'read_wiki' } as const;
const WRITE = { project: 'create_wiki' } as const;
const PAGE = { id: p.string.required(), slug: p.string.required() };
const TEXT = { max: MAX_CONTENT_BYTES };
const FORMAT = p.string.optional({ values: FORMATS, description: 'markdown (the default), rdoc, asciidoc or org' });
const BODY_LIMIT = MAX_CONTENT_BYTES * 2;

/** The page at `slug` (at `version` when given), or GitLab's "404 Wiki Page Not Found". */
export async function findPage(deps: Deps, projectId: number, slug: string, version?: string): Promise<WikiPage> {
  const snapshot = await wikiSnapshot(deps, projectId, version);
  const ref = findPageRef(snapshot, slug);
  if (!snapshot || !ref) throw new NotFoundError('Wiki Page');
  return loadPage(snapshot, ref);
}

/** A write that lost a race with another (a push, a second editor) is refused, never half done. */
async function written<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof WikiChangedError) throw new StatusError(400, error.message);
    throw error;
  }
}

export function wikiRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/wikis', summary: "A project's wiki pages", tags: TAGS, ability: READ, auth: 'optional',
    params: { id: p.string.required(), with_content: p.boolean.optional({ default: false }) },
    handler: async ({ params, project }) => {
      const access = await project();
      const snapshot = await wikiSnapshot(deps, Number(access.project.id));
      const pages = pagesOf(snapshot);
      if (!params.with_content || !snapshot) return pages.map(wikiPageBasic);
      return Promise.all(pages.map(async (ref) => wikiPageEntity(await loadPage(snapshot, ref))));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/wikis/:slug', summary: 'One wiki page', tags: TAGS, ability: READ, auth: 'optional',
    params: { ...PAGE, render_html: p.boolean.optional({ default: false }), version: p.string.optional({ max: 64 }) },
    handler: async ({ params, project }) => {
      const access = await project();
      const page = await findPage(deps, Number(access.project.id), params.slug, params.version);
      return wikiPageEntity(page, params.render_html ? await renderPage(deps, access, page) : page.content);
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/wikis', summary: 'Create a wiki page', tags: TAGS, ability: WRITE, status: 201, bodyLimit: BODY_LIMIT,
    params: { id: p.string.required(), title: p.string.required({ max: 4096 }), content: p.string.required({ ...TEXT, allowBlank: true }), format: FORMAT },
    handler: async ({ params, project, actor }) => {
      const access = await project();
      const page = await written(() => createPage(deps, actor.user, Number(access.project.id), { title: params.title, content: params.content, format: (params.format ?? 'markdown') as WikiFormat }));
      return wikiPageEntity(page);
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: '/projects/:id/wikis/:slug', summary: "Change a wiki page's content, title or format", tags: TAGS, ability: WRITE, bodyLimit: BODY_LIMIT,
    params: { ...PAGE, title: p.string.optional({ max: 4096 }), content: p.string.optional({ ...TEXT, allowBlank: true }), format: FORMAT },
    handler: async ({ params, input, project, actor }) => {
      requireOneOf(input, ['content', 'title', 'format']);
      const access = await project();
      const before = await findPage(deps, Number(access.project.id), params.slug);
      const page = await written(() => updatePage(deps, actor.user, Number(access.project.id), before, { title: params.title, content: params.content, format: params.format as WikiFormat | undefined }));
      return wikiPageEntity(page);
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/projects/:id/wikis/:slug', summary: 'Delete a wiki page', tags: TAGS, ability: { project: 'admin_wiki' }, params: PAGE,
    handler: async ({ params, project, actor }) => {
      const access = await project();
      const page = await findPage(deps, Number(access.project.id), params.slug);
      await written(() => deletePage(deps, actor.user, Number(access.project.id), page));
      return undefined;
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/wikis/attachments', summary: "Upload a file to the wiki's repository (multipart/form-data `file`)", tags: TAGS,
    ability: WRITE, status: 201, bodyLimit: MAX_UPLOAD_BYTES + 64 * 1024,
    params: { id: p.string.required(), file: p.json.required({ description: 'The file, sent as multipart/form-data' }), branch: p.string.optional({ max: 255 }) },
    handler: async ({ params, project, actor }) => {
      if (!isUploadedFile(params.file)) throw new ParamError('file is invalid');
      const access = await project();
      return written(() => uploadAttachment(deps, actor.user, Number(access.project.id), params.file as { filename: string; data: Buffer }));
    },
  });
}
