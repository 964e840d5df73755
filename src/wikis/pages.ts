// The wiki pages (GitLab's /<project>/-/wikis routes): the home page or the empty wiki's next step,
// one page rendered with its links between pages, a file of the wiki served raw, the new and edit
// forms with a preview, a page's history and the list of pages. The same abilities as the API decide
// (read_wiki, create_wiki, admin_wiki, within wiki_access_level).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { html } from '../platform/web/html.js';
import { namespacedPage, type PageContext } from '../platform/web/page-route.js';
import { ANSWERED, page, redirect, type PageOutcome } from '../platform/web/page.js';
import { projectSidebar } from '../platform/web/project-nav.js';
import { setRawHeaders } from '../platform/http/raw-headers.js';
import { canOnProject } from '../platform/auth/policies/index.js';
import { NotFoundError, StatusError, ValidationError } from '../platform/errors.js';
import { servedAs } from '../uploads/api.js';
import { WikiChangedError } from '../repositories/api.js';
import { findAttachment, findPageRef, loadPage, pageHistory, pagesOf, wikiSnapshot, type WikiPage, type WikiSnapshot } from './finder.js';
import { FORMATS, type WikiFormat } from './page-names.js';
import { renderPage, wikiRoot } from './render-page.js';
import { createPage } from './create-page.js';
import { updatePage } from './update-page.js';
import { deletePage } from './delete-page.js';
import { emptyWiki, historyTable, pageActions, pageArticle, pagesList, slugPath, wikiForm, wikiLayout, wikiSidebar, type WikiFormTarget, type WikiFormValues } from './page-views.js';

const ROOT = /^(?<path>.+?)\/-\/wikis/;
const pattern = (rest: string) => new RegExp(`${ROOT.source}${rest}$`);
const HOME = pattern('\\/?');
const PAGES = pattern('\\/pages');
const NEW = pattern('\\/new');
const PREVIEW = pattern('\\/preview_markdown');
const SLUG = '\\/(?<slug>[^?]+?)';
const ONE = pattern(SLUG);
const EDIT = pattern(`${SLUG}\\/edit`);
const HISTORY = pattern(`${SLUG}\\/history`);
const DELETE = pattern(`${SLUG}\\/delete`);

const one = (value: string | string[] | undefined): string => (Array.isArray(value) ? (value[0] ?? '') : (value ?? ''));

function slugOf(context: PageContext): string {
  try {
    return decodeURIComponent(context.match.slug);
  } catch {
    throw new NotFoundError();
  }
}

interface Wiki {
  access: ProjectAccess;
  root: string;
  snapshot: WikiSnapshot | null;
  writable: boolean;
}

async function openWiki(context: PageContext, version?: string): Promise<Wiki> {
  const access = await context.project();
  const snapshot = await wikiSnapshot(context.deps, Number(access.project.id), version);
  return { access, root: wikiRoot(access), snapshot, writable: canOnProject(access, 'create_wiki') };
}

function framed(wiki: Wiki, title: string, heading: string, main: ReturnType<typeof html>, current: string | null, status?: number): PageOutcome {
  return page({ title: `${title} · Wiki`, heading: html`<h1>${heading}</h1>`, body: wikiLayout(main, wikiSidebar(wiki.root, pagesOf(wiki.snapshot), current)), sidebar: projectSidebar(wiki.access, 'wiki'), status });
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
    const rendered = await renderPage(context.deps, wiki.access, shown);
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
  return { heading: `Edit ${existing.title}`, action: self, cancel: self, previewAction, slug: existing.slug, deleteAction: canOnProject(wiki.access, 'admin_wiki') ? `${self}/delete` : null };
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
  const projectId = Number(wiki.access.project.id);
  try {
    const saved = existing
      ? await updatePage(deps, user, projectId, existing, { title: values.title, content: values.content, format: values.format, message: values.message })
      : await createPage(deps, user, projectId, values);
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
  const preview = await renderPage(context.deps, wiki.access, { slug: existing?.slug ?? values.title, format: values.format, content: values.content });
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
  const read = { project: 'read_wiki' } as const;
  const write = { project: 'create_wiki' } as const;
  namespacedPage(app, deps, { method: 'GET', pattern: HOME, ability: read, auth: 'optional', handler: homePage });
  namespacedPage(app, deps, { method: 'GET', pattern: PAGES, ability: read, auth: 'optional', handler: listPage });
  namespacedPage(app, deps, {
    method: 'GET', pattern: NEW, ability: write,
    handler: async (context) => {
      const wiki = await writableWiki(context);
      return formPage(context, wiki, formTarget(wiki, null), { title: context.query.title ?? '', content: '', format: 'markdown', message: '' }, null);
    },
  });
  namespacedPage(app, deps, { method: 'POST', pattern: HOME, ability: write, handler: (context) => save(context, null) });
  namespacedPage(app, deps, { method: 'POST', pattern: PREVIEW, ability: write, handler: previewPage });
  namespacedPage(app, deps, {
    method: 'GET', pattern: EDIT, ability: write,
    handler: async (context) => {
      const wiki = await writableWiki(context);
      const existing = await existingPage(wiki, slugOf(context));
      return formPage(context, wiki, formTarget(wiki, existing), { title: existing.title, content: existing.content, format: existing.format, message: '' }, null);
    },
  });
  namespacedPage(app, deps, { method: 'GET', pattern: HISTORY, ability: read, auth: 'optional', handler: historyPage });
  namespacedPage(app, deps, {
    method: 'POST', pattern: DELETE, ability: { project: 'admin_wiki' },
    handler: async (context) => {
      const wiki = await writableWiki(context);
      await deletePage(context.deps, context.user, Number(wiki.access.project.id), await existingPage(wiki, slugOf(context)));
      return redirect(wiki.root, 'The page was deleted.');
    },
  });
  namespacedPage(app, deps, { method: 'POST', pattern: ONE, ability: write, handler: (context) => save(context, slugOf(context)) });
  namespacedPage(app, deps, { method: 'GET', pattern: ONE, ability: read, auth: 'optional', handler: showPage });
}
