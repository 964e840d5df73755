// The wiki pages (GitLab's /<project>/-/wikis and /groups/<group>/-/wikis routes): the home page or the empty wiki's next step,
// one page rendered with its links between pages, a file of the wiki served raw, the new and edit
// forms with a preview, a page's history and the list of pages. The same abilities as the API decide
// (read_wiki, create_wiki, admin_wiki, within wiki_access_level) of the project or group.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { html, type Html } from '../platform/web/html.js';
import { namespacedPage as register, type PageContext } from '../platform/web/page-route.js';
import { ANSWERED, page, redirect, type PageOutcome } from '../platform/web/page.js';
import { groupSidebar, projectSidebar } from '../platform/web/project-nav.js';
import { setRawHeaders } from '../platform/http/raw-headers.js';
import { NotFoundError, StatusError, ValidationError } from '../platform/errors.js';
import { servedAs } from '../uploads/api.js';
import { WikiChangedError } from '../repositories/api.js';
import { findAttachment, findPageRef, loadPage, pageHistory, pagesOf, wikiSnapshot, type WikiPage, type WikiSnapshot } from './finder.js';
import { FORMATS, type WikiFormat } from './page-names.js';
import { renderPage } from './render-page.js';
import { groupWiki, projectWiki, type WikiScope } from './wiki-scope.js';
import { createPage } from './create-page.js';
import { updatePage } from './update-page.js';
import { deletePage } from './delete-page.js';
import { emptyWiki, historyTable, pageActions, pageArticle, pagesList, slugPath, wikiForm, wikiLayout, wikiSidebar, type WikiFormTarget, type WikiFormValues } from './page-views.js';

const SLUG = '\\/(?<slug>[^?]+?)';

/** The page patterns under one root (a project's full path, or `groups/` and a group's). */
function patterns(root: string) {
  const pattern = (rest: string) => new RegExp(`${root}${rest}$`);
  return {
    HOME: pattern('\\/?'),
    PAGES: pattern('\\/pages'),
    NEW: pattern('\\/new'),
    PREVIEW: pattern('\\/preview_markdown'),
    ONE: pattern(SLUG),
    EDIT: pattern(`${SLUG}\\/edit`),
    HISTORY: pattern(`${SLUG}\\/history`),
    DELETE: pattern(`${SLUG}\\/delete`),
  };
}

const one = (value: string | string[] | undefined): string => (Array.isArray(value) ? (value[0] ?? '') : (value ?? ''));

function slugOf(context: PageContext): string {
  try {
    return decodeURIComponent(context.match.slug);
  } catch {
    throw new NotFoundError();
  }
}

interface Wiki extends WikiScope {
  snapshot: WikiSnapshot | null;
  /** The project's or group's navigation. */
  navigation: Html;
}

/** Whose wiki a page is about: the project or group the kit found and checked. */
type Opener = (context: PageContext) => Promise<WikiScope>;

const openers: Record<'project' | 'group', Opener> = {
  project: async (context) => projectWiki(await context.project()),
  group: async (context) => groupWiki(await context.group()),
};

// The opener of the route being served (set by `wikiPages` for each registration).
const openerOf = new WeakMap<PageContext, Opener>();

async function openWiki(context: PageContext, version?: string): Promise<Wiki> {
  const scope = await openerOf.get(context)!(context);
  const snapshot = await wikiSnapshot(context.deps, scope.owner, version);
  const navigation = scope.project ? projectSidebar(scope.project, 'wiki') : groupSidebar(scope.group!, 'wiki');
  return { ...scope, snapshot, navigation };
}

function framed(wiki: Wiki, title: string, heading: string, main: ReturnType<typeof html>, current: string | null, status?: number): PageOutcome {
  return page({ title: `${title} · Wiki`, heading: html`<h1>${heading}</h1>`, body: wikiLayout(main, wikiSidebar(wiki.root, pagesOf(wiki.snapshot), current)), sidebar: wiki.navigation, status });
}

async function homePage(context: PageContext): Promise<PageOutcome> {
  const wiki = await openWiki(context);
  if (findPageRef(wiki.snapshot, 'home')) return redirect(`${wiki.root}/home`);
  if (pagesOf(wiki.snapshot).length) return redirect(`${wiki.root}/pages`);
  return framed(wiki, 'Wiki', 'Wiki', emptyWiki(wiki.root, wiki.writable), null);
}

async function listPage(context: PageContext): Promise<PageOutcome> {
  const wiki = await openWiki(context);
  const main = html`${wiki.writable ? html`<p class="actions"><a class="button" href="${wiki.root}/new">New page</a></p>` : ''}${pagesList(wiki.root, pagesOf(wiki.snapshot))}`;
  return framed(wiki, 'All pages', 'All pages', main, null);
}

/** A page, or a file of the wiki (an attachment) as it is stored, or the way to write the missing page. */
async function showPage(context: PageContext): Promise<PageOutcome> {
  const slug = slugOf(context);
  const version = context.query.version_id;
  const wiki = await openWiki(context, version);
  const ref = findPageRef(wiki.snapshot, slug);
  if (wiki.snapshot && ref) {
    const shown = await loadPage(wiki.snapshot, ref);
    const rendered = await renderPage(context.deps, wiki, shown);
    return framed(wiki, shown.title, shown.title, html`${pageActions(wiki.root, shown, wiki.writable)}${pageArticle(rendered, version ? wiki.snapshot.commit : null)}`, slug);
  }
  const file = await findAttachment(wiki.snapshot, slug);
  if (file) {
    const name = file.path.slice(file.path.lastIndexOf('/') + 1);
    const { type, disposition } = servedAs(name);
    setRawHeaders(context.reply, name, type, disposition);
    context.reply.header('content-length', String(file.data.length)).send(file.data);
    return ANSWERED;
  }
  if (!wiki.writable || version) throw new NotFoundError();
  const main = html`<div class="empty"><p>There is no page <code>${slug}</code> yet.</p><p><a class="button" href="${wiki.root}/new?title=${encodeURIComponent(slug)}">Create this page</a></p></div>`;
  return framed(wiki, slug, 'Page not found', main, null, 404);
}

function formOf(context: PageContext): WikiFormValues {
  const format = one(context.form.format);
  return { title: one(context.form.title).trim(), content: one(context.form.content).replace(/\r\n/g, '\n'), format: (FORMATS as readonly string[]).includes(format) ? (format as WikiFormat) : 'markdown', message: one(context.form.message) };
}

interface FormTarget extends WikiFormTarget {
  heading: string;
}

function formTarget(wiki: Wiki, existing: WikiPage | null): FormTarget {
  const previewAction = `${wiki.root}/preview_markdown`;
  if (!existing) return { heading: 'New page', action: wiki.root, cancel: wiki.root, previewAction, slug: null, deleteAction: null };
  const self = slugPath(wiki.root, existing.slug);
  return { heading: `Edit ${existing.title}`, action: self, cancel: self, previewAction, slug: existing.slug, deleteAction: wiki.deletable ? `${self}/delete` : null };
}

function formPage(context: PageContext, wiki: Wiki, target: FormTarget, values: WikiFormValues, error: string | null, preview: string | null = null): PageOutcome {
  return framed(wiki, target.heading, target.heading, wikiForm(context, target, values, error, preview), null, error ? 422 : 200);
}

async function writableWiki(context: PageContext): Promise<Wiki> {
  const wiki = await openWiki(context);
  if (!wiki.writable) throw new NotFoundError();
  return wiki;
}

async function existingPage(wiki: Wiki, slug: string): Promise<WikiPage> {
  const ref = findPageRef(wiki.snapshot, slug);
  if (!wiki.snapshot || !ref) throw new NotFoundError();
  return loadPage(wiki.snapshot, ref);
}

/** A refusal of the write as the form's sentence, or null when it is no refusal of the input. */
function refusal(error: unknown): string | null {
  if (error instanceof ValidationError) return `Title ${error.fields.title?.[0] ?? error.message}`.replace(/^Title content /, 'Content ');
  if (error instanceof StatusError) return Array.isArray(error.body) ? error.body.join(' ') : error.body;
  if (error instanceof WikiChangedError) return error.message;
  return null;
}

async function save(context: PageContext, slug: string | null): Promise<PageOutcome> {
  const wiki = await writableWiki(context);
  const existing = slug === null ? null : await existingPage(wiki, slug);
  const values = formOf(context);
  const target = formTarget(wiki, existing);
  const { deps, user } = context;
  try {
    const saved = existing
      ? await updatePage(deps, user, wiki.owner, existing, { title: values.title, content: values.content, format: values.format, message: values.message })
      : await createPage(deps, user, wiki.owner, values);
    return redirect(slugPath(wiki.root, saved.slug), existing ? 'The page was saved.' : 'The page was created.');
  } catch (error) {
    const message = refusal(error);
    if (message === null) throw error;
    return formPage(context, wiki, target, values, message);
  }
}

async function previewPage(context: PageContext): Promise<PageOutcome> {
  const wiki = await writableWiki(context);
  const values = formOf(context);
  const existingSlug = one(context.form.slug);
  const existing = existingSlug ? findPageRef(wiki.snapshot, existingSlug) : null;
  const preview = await renderPage(context.deps, wiki, { slug: existing?.slug ?? values.title, format: values.format, content: values.content });
  const target = existing && wiki.snapshot ? formTarget(wiki, await loadPage(wiki.snapshot, existing)) : formTarget(wiki, null);
  return formPage(context, wiki, target, values, null, preview);
}

async function historyPage(context: PageContext): Promise<PageOutcome> {
  const wiki = await openWiki(context);
  const shown = await existingPage(wiki, slugOf(context));
  const commits = await pageHistory(wiki.snapshot!, shown);
  const viewer = context.user ? await context.deps.db.selectFrom('users').select('time_zone').where('id', '=', context.user.id).executeTakeFirst() : undefined;
  return framed(wiki, `History of ${shown.title}`, `History of ${shown.title}`, historyTable(wiki.root, shown.slug, commits, viewer?.time_zone || 'UTC'), shown.slug);
}

export function wikiPages(app: FastifyInstance, deps: Deps): void {
  // A group's pages first: `groups/<group>/-/wikis` would otherwise be read as a project's path.
  ownerPages(app, deps, 'group', patterns('^groups\\/(?<path>.+?)\\/-\\/wikis'));
  ownerPages(app, deps, 'project', patterns('^(?<path>.+?)\\/-\\/wikis'));
}

function ownerPages(app: FastifyInstance, deps: Deps, kind: 'project' | 'group', { HOME, PAGES, NEW, PREVIEW, ONE, EDIT, HISTORY, DELETE }: ReturnType<typeof patterns>): void {
  const read = kind === 'project' ? ({ project: 'read_wiki' } as const) : ({ group: 'read_wiki' } as const);
  const write = kind === 'project' ? ({ project: 'create_wiki' } as const) : ({ group: 'create_wiki' } as const);
  const admin = kind === 'project' ? ({ project: 'admin_wiki' } as const) : ({ group: 'admin_wiki' } as const);
  const namespacedPage = (target: FastifyInstance, spec: Parameters<typeof register>[2]) =>
    register(target, deps, {
      ...spec,
      handler: (context) => {
        openerOf.set(context, openers[kind]);
        return spec.handler(context);
      },
    });
  namespacedPage(app, { method: 'GET', pattern: HOME, ability: read, auth: 'optional', handler: homePage });
  namespacedPage(app, { method: 'GET', pattern: PAGES, ability: read, auth: 'optional', handler: listPage });
  namespacedPage(app, {
    method: 'GET', pattern: NEW, ability: write,
    handler: async (context) => {
      const wiki = await writableWiki(context);
      return formPage(context, wiki, formTarget(wiki, null), { title: context.query.title ?? '', content: '', format: 'markdown', message: '' }, null);
    },
  });
  namespacedPage(app, { method: 'POST', pattern: HOME, ability: write, handler: (context) => save(context, null) });
  namespacedPage(app, { method: 'POST', pattern: PREVIEW, ability: write, handler: previewPage });
  namespacedPage(app, {
    method: 'GET', pattern: EDIT, ability: write,
    handler: async (context) => {
      const wiki = await writableWiki(context);
      const existing = await existingPage(wiki, slugOf(context));
      return formPage(context, wiki, formTarget(wiki, existing), { title: existing.title, content: existing.content, format: existing.format, message: '' }, null);
    },
  });
  namespacedPage(app, { method: 'GET', pattern: HISTORY, ability: read, auth: 'optional', handler: historyPage });
  namespacedPage(app, {
    method: 'POST', pattern: DELETE, ability: admin,
    handler: async (context) => {
      const wiki = await writableWiki(context);
      await deletePage(context.deps, context.user, wiki.owner, await existingPage(wiki, slugOf(context)));
      return redirect(wiki.root, 'The page was deleted.');
    },
  });
  namespacedPage(app, { method: 'POST', pattern: ONE, ability: write, handler: (context) => save(context, slugOf(context)) });
  namespacedPage(app, { method: 'GET', pattern: ONE, ability: read, auth: 'optional', handler: showPage });
}
