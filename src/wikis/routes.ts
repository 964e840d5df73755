// The wikis API of projects and of groups (doc/api/wikis.md, group_wikis.md; lib/api/wikis.rb, whose
// endpoints serve both): pages read by Guests and readers of the project or group, written by
// Developers, all within its wiki_access_level (`wiki_enabled` for projects): the policy reads it, so
// a closed wiki is 403 like any ability the caller lacks. Slugs are sent URL-encoded (`dir%2Fpage`).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute, type RouteContext } from '../platform/http/route.js';
import { p, requireOneOf } from '../platform/http/params.js';
import { isUploadedFile } from '../platform/http/multipart.js';
import { NotFoundError, ParamError, StatusError } from '../platform/errors.js';
import { MAX_UPLOAD_BYTES } from '../uploads/api.js';
import { WikiChangedError, WikiReadOnlyError, type WikiOwner } from '../repositories/api.js';
import { findPageRef, loadPage, pagesOf, wikiSnapshot, type WikiPage } from './finder.js';
import { wikiPageBasic, wikiPageEntity } from './entities.js';
import { FORMATS, type WikiFormat } from './page-names.js';
import { MAX_CONTENT_BYTES } from './page-rules.js';
import { renderPage } from './render-page.js';
import { createPage } from './create-page.js';
import { updatePage } from './update-page.js';
import { deletePage } from './delete-page.js';
import { uploadAttachment } from './upload-attachment.js';
import { groupWiki, projectWiki, type WikiScope } from './wiki-scope.js';

const TAGS = ['wikis'];
const PAGE = { id: p.string.required(), slug: p.string.required() };
const TEXT = { max: MAX_CONTENT_BYTES };
const FORMAT = p.string.optional({ values: FORMATS, description: 'markdown (the default), rdoc, asciidoc or org' });
const BODY_LIMIT = MAX_CONTENT_BYTES * 2;

/** The page at `slug` (at `version` when given), or GitLab's "404 Wiki Page Not Found". */
export async function findPage(deps: Deps, owner: WikiOwner, slug: string, version?: string): Promise<WikiPage> {
  const snapshot = await wikiSnapshot(deps, owner, version);
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
    if (error instanceof WikiReadOnlyError) throw new StatusError(403, error.message);
    throw error;
  }
}

type Ability = 'read_wiki' | 'create_wiki' | 'admin_wiki';

/** The routes of one kind of wiki owner: where they are, the ability declared, the scope found. */
interface Owner {
  base: '/projects/:id' | '/groups/:id';
  noun: 'project' | 'group';
  ability: (name: Ability) => { project: Ability } | { group: Ability };
  scope: (deps: Deps, context: Pick<RouteContext<never>, 'project' | 'group'>) => Promise<WikiScope>;
}

const OWNERS: Owner[] = [
  { base: '/projects/:id', noun: 'project', ability: (name) => ({ project: name }), scope: async (_deps, context) => projectWiki(await context.project()) },
  { base: '/groups/:id', noun: 'group', ability: (name) => ({ group: name }), scope: async (_deps, context) => groupWiki(await context.group()) },
];

export function wikiRoutes(app: FastifyInstance, deps: Deps): void {
  for (const owner of OWNERS) ownerRoutes(app, deps, owner);
}

function ownerRoutes(app: FastifyInstance, deps: Deps, owner: Owner): void {
  const { base, noun } = owner;
  const READ = owner.ability('read_wiki');
  const WRITE = owner.ability('create_wiki');
  apiRoute(app, deps, {
    method: 'GET', url: `${base}/wikis`, summary: `A ${noun}'s wiki pages`, tags: TAGS, ability: READ, auth: 'optional',
    params: { id: p.string.required(), with_content: p.boolean.optional({ default: false }) },
    handler: async (context) => {
      const { params } = context;
      const scope = await owner.scope(deps, context);
      const snapshot = await wikiSnapshot(deps, scope.owner);
      const pages = pagesOf(snapshot);
      if (!params.with_content || !snapshot) return pages.map(wikiPageBasic);
      return Promise.all(pages.map(async (ref) => wikiPageEntity(await loadPage(snapshot, ref))));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: `${base}/wikis/:slug`, summary: 'One wiki page', tags: TAGS, ability: READ, auth: 'optional',
    params: { ...PAGE, render_html: p.boolean.optional({ default: false }), version: p.string.optional({ max: 64 }) },
    handler: async (context) => {
      const { params } = context;
      const scope = await owner.scope(deps, context);
      const page = await findPage(deps, scope.owner, params.slug, params.version);
      return wikiPageEntity(page, params.render_html ? await renderPage(deps, scope, page) : page.content);
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: `${base}/wikis`, summary: 'Create a wiki page', tags: TAGS, ability: WRITE, status: 201, bodyLimit: BODY_LIMIT,
    params: { id: p.string.required(), title: p.string.required({ max: 4096 }), content: p.string.required({ ...TEXT, allowBlank: true }), format: FORMAT },
    handler: async (context) => {
      const { params, actor } = context;
      const scope = await owner.scope(deps, context);
      const page = await written(() => createPage(deps, actor.user, scope.owner, { title: params.title, content: params.content, format: (params.format ?? 'markdown') as WikiFormat }));
      return wikiPageEntity(page);
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: `${base}/wikis/:slug`, summary: "Change a wiki page's content, title or format", tags: TAGS, ability: WRITE, bodyLimit: BODY_LIMIT,
    params: { ...PAGE, title: p.string.optional({ max: 4096 }), content: p.string.optional({ ...TEXT, allowBlank: true }), format: FORMAT },
    handler: async (context) => {
      const { params, input, actor } = context;
      requireOneOf(input, ['content', 'title', 'format']);
      const scope = await owner.scope(deps, context);
      const before = await findPage(deps, scope.owner, params.slug);
      const page = await written(() => updatePage(deps, actor.user, scope.owner, before, { title: params.title, content: params.content, format: params.format as WikiFormat | undefined }));
      return wikiPageEntity(page);
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: `${base}/wikis/:slug`, summary: 'Delete a wiki page', tags: TAGS, ability: owner.ability('admin_wiki'), params: PAGE,
    handler: async (context) => {
      const { params, actor } = context;
      const scope = await owner.scope(deps, context);
      const page = await findPage(deps, scope.owner, params.slug);
      await written(() => deletePage(deps, actor.user, scope.owner, page));
      return undefined;
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: `${base}/wikis/attachments`, summary: "Upload a file to the wiki's repository (multipart/form-data `file`)", tags: TAGS,
    ability: WRITE, status: 201, bodyLimit: MAX_UPLOAD_BYTES + 64 * 1024,
    params: { id: p.string.required(), file: p.json.required({ description: 'The file, sent as multipart/form-data' }), branch: p.string.optional({ max: 255 }) },
    handler: async (context) => {
      const { params, actor } = context;
      if (!isUploadedFile(params.file)) throw new ParamError('file is invalid');
      const scope = await owner.scope(deps, context);
      return written(() => uploadAttachment(deps, actor.user, scope.owner, params.file as { filename: string; data: Buffer }));
    },
  });
}
