// The snippet pages (GitLab's /-/snippets and /<project>/-/snippets): a list, one snippet with its
// files highlighted, the new and edit forms, delete, and the raw files at the entity's raw_url and
// files[].raw_url. The same rules as the API decide who sees and changes what (snippet-policy.ts).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { html } from '../platform/web/html.js';
import { namespacedPage, pageRoute, type PageContext } from '../platform/web/page-route.js';
import { ANSWERED, page, redirect, type PageOutcome } from '../platform/web/page.js';
import { projectSidebar } from '../platform/web/project-nav.js';
import { canOnProject } from '../platform/auth/policies/index.js';
import { ForbiddenError, NotFoundError } from '../platform/errors.js';
import { authoredSnippetsQuery, findPersonalSnippet, findProjectSnippet, projectSnippetsQuery, snippetFiles, type SnippetRow } from './finder.js';
import { presentSnippet, presentSnippets } from './entities.js';
import { authorizeSnippets, canReadSnippet, canUpdateSnippet, readableVisibilities } from './snippet-policy.js';
import { createSnippet } from './create-snippet.js';
import { updateSnippet } from './update-snippet.js';
import { deleteSnippet } from './delete-snippet.js';
import { readSnippetForm, snippetForm, type SnippetFormValues } from './snippet-form.js';
import { snippetArticle, snippetList, snippetPath } from './snippet-view.js';
import { fileAt, sendRaw } from './snippet-params.js';
import { postSnippetComment, projectCommentRules, snippetComments } from './snippet-comments.js';
import { personalCommentRules, personalSnippetCommentPages } from './personal-snippet-comment-pages.js';
import { requestDetail } from '../platform/http/user-agent-detail.js';
import { isBinary } from './binary-files.js';

const PROJECT_ROOT = /^(?<path>.+?)\/-\/snippets/;
const pattern = (rest: string) => new RegExp(`${PROJECT_ROOT.source}${rest}$`);
const LIST = pattern('');
const NEW = pattern('\\/new');
const ONE = pattern('\\/(?<id>\\d+)');
const EDIT = pattern('\\/(?<id>\\d+)\\/edit');
const DELETE = pattern('\\/(?<id>\\d+)\\/delete');
const RAW = pattern('\\/(?<id>\\d+)\\/raw');
const RAW_FILE = pattern('\\/(?<id>\\d+)\\/raw\\/(?<ref>[^/]+)\\/(?<file>.+)');
const NOTES = pattern('\\/(?<id>\\d+)\\/notes');

const EMPTY_FORM: SnippetFormValues = { title: '', description: '', visibility: 'private', files: [] };

/** Where a page's snippet lives: a project (its access, feature level read) or none (personal). */
interface Place {
  access: ProjectAccess | null;
  root: string;
  frame(): { sidebar?: ReturnType<typeof projectSidebar> };
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new NotFoundError();
  }
}

function personalPlace(): Place {
  return { access: null, root: '/-/snippets', frame: () => ({}) };
}

async function projectPlace(context: PageContext, ability: 'read_snippet' | 'create_snippet'): Promise<Place> {
  const access = authorizeSnippets(await context.project(), ability);
  return { access, root: `/${access.project.full_path}/-/snippets`, frame: () => ({ sidebar: projectSidebar(access, 'snippets') }) };
}

async function readable(context: PageContext, place: Place, id: number): Promise<SnippetRow> {
  const snippet = place.access ? await findProjectSnippet(context.deps.db, Number(place.access.project.id), id) : await findPersonalSnippet(context.deps.db, id);
  if (!canReadSnippet(context.user ?? null, snippet, place.access)) throw new NotFoundError();
  return snippet;
}

async function writable(context: PageContext, place: Place, id: number): Promise<SnippetRow> {
  const snippet = await readable(context, place, id);
  if (!canUpdateSnippet(context.user ?? null, snippet, place.access)) throw new ForbiddenError();
  return snippet;
}

async function listPage(context: PageContext, place: Place): Promise<PageOutcome> {
  const { deps } = context;
  const rows = place.access
    ? await projectSnippetsQuery(deps, Number(place.access.project.id), readableVisibilities(place.access)).limit(100).execute()
    : await authoredSnippetsQuery(deps, context.user.id).limit(100).execute();
  const creatable = place.access ? canOnProject(place.access, 'create_snippet') : true;
  const body = html`${creatable ? html`<p class="actions"><a class="button" href="${place.root}/new">New snippet</a></p>` : ''}
${snippetList(context, await presentSnippets(deps, rows), html`<p>No snippets yet.</p><p class="muted">Snippets keep short pieces of code or text, of one or more files, to share.</p>`)}`;
  return page({ title: 'Snippets', heading: html`<h1>${place.access ? 'Snippets' : 'Your snippets'}</h1>`, body, ...place.frame() });
}

async function showPage(context: PageContext, place: Place): Promise<PageOutcome> {
  const snippet = await readable(context, place, Number(context.match.id ?? context.params.id));
  const presented = await presentSnippet(context.deps, snippet);
  const files = (await snippetFiles(context.deps.db, [Number(snippet.id)])).get(Number(snippet.id)) ?? [];
  const article = await snippetArticle(context, presented, files, { editable: canUpdateSnippet(context.user ?? null, snippet, place.access), project: place.access });
  const rules = place.access ? projectCommentRules(context, place.access) : personalCommentRules(context, snippet);
  const comments = await snippetComments(context, snippet, `${place.root}/${Number(snippet.id)}`, rules);
  const body = html`${article}${comments}`;
  return page({ title: `${snippet.title} · Snippets`, heading: html`<h1>${snippet.title}</h1>`, body, ...place.frame() });
}

function formPage(context: PageContext, place: Place, title: string, action: string, cancel: string, values: SnippetFormValues, error: string | null): PageOutcome {
  return page({ title, heading: html`<h1>${title}</h1>`, body: snippetForm(context, action, cancel, values, error), status: error ? 422 : 200, ...place.frame() });
}

async function create(context: PageContext, place: Place): Promise<PageOutcome> {
  const { values, error } = readSnippetForm(context.form);
  if (error) return formPage(context, place, 'New snippet', place.root, place.root, values, error);
  const snippet = await createSnippet(context.deps, context.user, { projectId: place.access ? Number(place.access.project.id) : null, ...values, ...requestDetail(context.request) });
  return redirect(snippetPath(context, await presentSnippet(context.deps, snippet)), 'The snippet was created.');
}

async function editPage(context: PageContext, place: Place): Promise<PageOutcome> {
  const snippet = await writable(context, place, Number(context.match.id ?? context.params.id));
  const files = (await snippetFiles(context.deps.db, [Number(snippet.id)])).get(Number(snippet.id)) ?? [];
  const path = `${place.root}/${snippet.id}`;
  const texts = files.filter((file) => !isBinary(file));
  const values = { title: snippet.title, description: snippet.description ?? '', visibility: snippet.visibility, files: texts.map((file) => ({ path: file.path, content: file.content })), binaryPaths: files.filter(isBinary).map((file) => file.path) };
  return formPage(context, place, `Edit ${snippet.title}`, path, path, values, null);
}

/** The snippet's binary files, which the edit form lists by name only (update-snippet.ts keeps them). */
async function binaryPaths(context: PageContext, snippet: SnippetRow): Promise<string[]> {
  const files = (await snippetFiles(context.deps.db, [Number(snippet.id)])).get(Number(snippet.id)) ?? [];
  return files.filter(isBinary).map((file) => file.path);
}

async function update(context: PageContext, place: Place): Promise<PageOutcome> {
  const snippet = await writable(context, place, Number(context.match.id ?? context.params.id));
  const path = `${place.root}/${snippet.id}`;
  const { values, error } = readSnippetForm(context.form);
  if (error) return formPage(context, place, `Edit ${snippet.title}`, path, path, { ...values, binaryPaths: await binaryPaths(context, snippet) }, error);
  await updateSnippet(context.deps, snippet, { title: values.title, description: values.description, visibility: values.visibility, replace: values.files }, context.user.id);
  return redirect(path, 'The snippet was saved.');
}

async function remove(context: PageContext, place: Place): Promise<PageOutcome> {
  await deleteSnippet(context.deps, await writable(context, place, Number(context.match.id ?? context.params.id)));
  return redirect(place.root, 'The snippet was deleted.');
}

async function rawFile(context: PageContext, place: Place, which: 'first' | 'named'): Promise<PageOutcome> {
  const snippet = await readable(context, place, Number(context.match.id ?? context.params.id));
  const files = (await snippetFiles(context.deps.db, [Number(snippet.id)])).get(Number(snippet.id)) ?? [];
  const ref = context.match.ref ?? context.params.ref;
  const file = which === 'first' ? files[0] : fileAt(files, decoded(ref), decoded(context.match.file ?? (context.params as Record<string, string>)['*']));
  if (!file) throw new NotFoundError();
  sendRaw(context.reply, file);
  return ANSWERED;
}

export function snippetPages(app: FastifyInstance, deps: Deps): void {
  const signedIn = { instance: 'log_in' } as const;
  const anyone = { instance: 'read_instance' } as const;
  const mine = personalPlace();
  pageRoute(app, deps, { method: 'GET', url: '/-/snippets', ability: signedIn, handler: (context) => listPage(context, mine) });
  // GitLab's "Your snippets" (Dashboard › Snippets, Shift+S) is /dashboard/snippets: the same list.
  pageRoute(app, deps, { method: 'GET', url: '/dashboard/snippets', ability: signedIn, handler: (context) => listPage(context, mine) });
  pageRoute(app, deps, { method: 'GET', url: '/-/snippets/new', ability: signedIn, handler: async (context) => formPage(context, mine, 'New snippet', mine.root, mine.root, EMPTY_FORM, null) });
  pageRoute(app, deps, { method: 'POST', url: '/-/snippets', ability: signedIn, handler: (context) => create(context, mine) });
  pageRoute(app, deps, { method: 'GET', url: '/-/snippets/:id', ability: anyone, auth: 'optional', handler: (context) => showPage(context, mine) });
  pageRoute(app, deps, { method: 'GET', url: '/-/snippets/:id/edit', ability: signedIn, handler: (context) => editPage(context, mine) });
  pageRoute(app, deps, { method: 'POST', url: '/-/snippets/:id', ability: signedIn, handler: (context) => update(context, mine) });
  pageRoute(app, deps, { method: 'POST', url: '/-/snippets/:id/delete', ability: signedIn, handler: (context) => remove(context, mine) });
  pageRoute(app, deps, { method: 'GET', url: '/-/snippets/:id/raw', ability: anyone, auth: 'optional', handler: (context) => rawFile(context, mine, 'first') });
  pageRoute(app, deps, { method: 'GET', url: '/-/snippets/:id/raw/:ref/*', ability: anyone, auth: 'optional', handler: (context) => rawFile(context, mine, 'named') });
  personalSnippetCommentPages(app, deps);

  const read = { project: 'read_snippet' } as const;
  const make = { project: 'create_snippet' } as const;
  namespacedPage(app, deps, { method: 'GET', pattern: LIST, ability: read, auth: 'optional', handler: async (context) => listPage(context, await projectPlace(context, 'read_snippet')) });
  namespacedPage(app, deps, {
    method: 'GET', pattern: NEW, ability: make,
    handler: async (context) => {
      const place = await projectPlace(context, 'create_snippet');
      return formPage(context, place, 'New snippet', place.root, place.root, EMPTY_FORM, null);
    },
  });
  namespacedPage(app, deps, { method: 'POST', pattern: LIST, ability: make, handler: async (context) => create(context, await projectPlace(context, 'create_snippet')) });
  namespacedPage(app, deps, { method: 'GET', pattern: ONE, ability: read, auth: 'optional', handler: async (context) => showPage(context, await projectPlace(context, 'read_snippet')) });
  namespacedPage(app, deps, { method: 'GET', pattern: EDIT, ability: read, handler: async (context) => editPage(context, await projectPlace(context, 'read_snippet')) });
  namespacedPage(app, deps, { method: 'POST', pattern: ONE, ability: read, handler: async (context) => update(context, await projectPlace(context, 'read_snippet')) });
  namespacedPage(app, deps, { method: 'POST', pattern: DELETE, ability: read, handler: async (context) => remove(context, await projectPlace(context, 'read_snippet')) });
  namespacedPage(app, deps, {
    method: 'POST', pattern: NOTES, ability: read,
    handler: async (context) => {
      const place = await projectPlace(context, 'read_snippet');
      const snippet = await readable(context, place, Number(context.match.id));
      return postSnippetComment(context, place.access!, snippet, `${place.root}/${Number(snippet.id)}`);
    },
  });
  namespacedPage(app, deps, { method: 'GET', pattern: RAW, ability: read, auth: 'optional', handler: async (context) => rawFile(context, await projectPlace(context, 'read_snippet'), 'first') });
  namespacedPage(app, deps, { method: 'GET', pattern: RAW_FILE, ability: read, auth: 'optional', handler: async (context) => rawFile(context, await projectPlace(context, 'read_snippet'), 'named') });
}

