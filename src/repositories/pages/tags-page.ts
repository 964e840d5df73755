// The tags of a project (GitLab's tags page): searched by name, newest first, 20 a page, each with
// its commit and its annotation's message; a form for a new tag (annotated when given a message)
// and a delete button for those who may manage tags (a protected tag only for Maintainers, as the
// tag check refuses anyone else; protected tags carry a badge).
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { html, raw, type Html } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { csrfField } from '../../platform/web/page-route.js';
import { page, redirect } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { canOnProject } from '../../platform/auth/policies/policy.js';
import { findTags, tagReleases } from '../repository-api/tags-finder.js';
import { renderGitlabMarkdown } from '../../markdown/api.js';
import { createTag } from '../repository-api/create-tag.js';
import { deleteTag } from '../repository-api/delete-tag.js';
import { RepositoryApiError } from '../repository-api/errors.js';
import { timeElement } from './time.js';
import { commitTitle } from './shared.js';
import { repoUrl } from './urls.js';
import { projectTagRules, tagRulesMatching } from '../protected-branches/tag-finder.js';

export const TAGS_PATTERN = /^(?<path>.+?)\/-\/tags$/;
export const NEW_TAG_PATTERN = /^(?<path>.+?)\/-\/tags\/new$/;
export const DELETE_TAG_PATTERN = /^(?<path>.+?)\/-\/tags\/delete$/;
const PER_PAGE = 20;

function field(form: Record<string, string | string[]>, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value : '';
}

/** The release notes of the shown tags, rendered as the releases page renders them, with a link to the release. */
async function releaseNotes(context: PageContext, access: ProjectAccess, names: string[]): Promise<Map<string, Html>> {
  const releases = await tagReleases(context.deps, access, names);
  const base = `/${access.project.full_path}`;
  const notes = new Map<string, Html>();
  for (const release of releases.values()) {
    const rendered = release.description.trim() ? await renderGitlabMarkdown(context.deps, release.description, { project: access }) : '';
    notes.set(release.tag_name, html`<section class="release-notes" aria-label="Release notes of ${release.tag_name}"><a href="${base}/-/releases/${encodeURIComponent(release.tag_name)}">Release notes</a>${rendered ? html`<div class="markdown">${raw(rendered)}</div>` : ''}</section>`);
  }
  return notes;
}

export async function renderTags(context: PageContext, access: ProjectAccess) {
  const base = `/${access.project.full_path}`;
  const search = (context.query.search ?? '').slice(0, 255);
  const pageNumber = Math.max(1, Math.min(10_000, Number.parseInt(context.query.page ?? '1', 10) || 1));
  const [tags, rules] = await Promise.all([findTags(context.deps, access, { search, orderBy: 'updated', sort: 'desc' }), projectTagRules(context.deps.db, Number(access.project.id))]);
  const shown = tags.slice((pageNumber - 1) * PER_PAGE, pageNumber * PER_PAGE);
  const mayManage = canOnProject(access, 'admin_tag');
  const mayDeleteProtected = mayManage && canOnProject(access, 'delete_protected_tag');
  const now = context.deps.clock.now();
  const notes = await releaseNotes(context, access, shown.map((tag) => tag.name));
  const rows = shown.map((tag) => {
    const isProtected = tagRulesMatching(rules, tag.name).length > 0;
    return html`<li data-tag="${tag.name}"><div class="commit-main"><a class="commit-title" href="${repoUrl(base, 'tree', tag.name)}">${tag.name}</a>${isProtected ? html` <span class="badge">protected</span>` : ''}
<br><span class="muted"><a href="${base}/-/commit/${tag.commit.id}"><code>${tag.commit.id.slice(0, 8)}</code></a> ${commitTitle(tag.commit)} · ${timeElement(tag.commit.committer.seconds, now)}</span>
${tag.annotation && tag.annotation.message.trim() ? html`<pre class="tag-message">${tag.annotation.message.trim()}</pre>` : ''}${notes.get(tag.name) ?? ''}</div>
<a class="button small secondary" href="${base}/-/archive/${encodeURIComponent(tag.name)}/${encodeURIComponent(`${access.project.path}-${tag.name.replace(/\//g, '-')}`)}.zip" download>zip</a>
${mayManage && (!isProtected || mayDeleteProtected) ? html`<form class="inline" method="post" action="${base}/-/tags/delete" data-confirm="Delete the tag ${tag.name}?">${csrfField(context)}<input type="hidden" name="name" value="${tag.name}"><button type="submit" class="small danger" aria-label="Delete the tag ${tag.name}">Delete</button></form>` : ''}</li>`;
  });
  const more = tags.length > pageNumber * PER_PAGE;
  const query = (next: number) => `${base}/-/tags?${new URLSearchParams({ ...(search ? { search } : {}), page: String(next) }).toString()}`;
  const body = html`
<div class="actions">
<form method="get" action="${base}/-/tags" role="search"><label class="visually-hidden" for="tag-search">Filter by tag name</label><input type="search" id="tag-search" name="search" value="${search}" placeholder="Filter by tag name"> <button type="submit" class="secondary">Search</button></form>
${mayManage ? html`<a class="button" href="${base}/-/tags/new">New tag</a>` : ''}
</div>
${rows.length ? html`<ul class="commit-list" id="tags">${rows}</ul>` : html`<p class="empty">No tags${search ? html` match <code>${search}</code>` : ''}.</p>`}
<nav class="pagination" aria-label="Pages">${pageNumber > 1 ? html`<a href="${query(pageNumber - 1)}" rel="prev">Previous</a>` : ''}${more ? html`<a href="${query(pageNumber + 1)}" rel="next">Next</a>` : ''}</nav>`;
  return page({ title: `Tags · ${access.project.name}`, heading: html`<h1>Tags</h1>`, body, sidebar: projectSidebar(access, 'repository') });
}

function newTagForm(context: PageContext, access: ProjectAccess, values: { name: string; ref: string; message: string }, error?: string): Html {
  const base = `/${access.project.full_path}`;
  return html`${error ? html`<p class="error" role="alert">${error}</p>` : ''}<form class="stacked" method="post" action="${base}/-/tags/new">${csrfField(context)}
<label for="tag-name">Tag name</label><input type="text" id="tag-name" name="tag_name" value="${values.name}" required>
<label for="tag-ref">Create from</label><input type="text" id="tag-ref" name="ref" value="${values.ref}" required>
<label for="tag-message">Message</label><textarea id="tag-message" name="message">${values.message}</textarea>
<p class="muted">With a message the tag is annotated.</p>
<p class="actions"><button type="submit">Create tag</button> <a href="${base}/-/tags">Cancel</a></p></form>`;
}

export async function renderNewTag(context: PageContext, access: ProjectAccess) {
  return page({ title: `New tag · ${access.project.name}`, heading: html`<h1>New tag</h1>`, body: newTagForm(context, access, { name: '', ref: context.query.ref ?? access.project.default_branch, message: '' }), sidebar: projectSidebar(access, 'repository') });
}

export async function createTagFromForm(context: PageContext, access: ProjectAccess) {
  const values = { name: field(context.form, 'tag_name').trim(), ref: field(context.form, 'ref').trim(), message: field(context.form, 'message') };
  try {
    await createTag(context.deps, access, { name: values.name, ref: values.ref, message: values.message });
    return redirect(`/${access.project.full_path}/-/tags`, `Tag ${values.name} was created.`);
  } catch (error) {
    if (!(error instanceof RepositoryApiError)) throw error;
    return page({ status: 400, title: `New tag · ${access.project.name}`, heading: html`<h1>New tag</h1>`, body: newTagForm(context, access, values, error.message), sidebar: projectSidebar(access, 'repository') });
  }
}

export async function deleteTagFromForm(context: PageContext, access: ProjectAccess) {
  const name = field(context.form, 'name');
  const base = `/${access.project.full_path}`;
  try {
    await deleteTag(context.deps, access, name);
    return redirect(`${base}/-/tags`, `Tag ${name} was deleted.`);
  } catch (error) {
    if (error instanceof RepositoryApiError) return redirect(`${base}/-/tags`, error.message);
    throw error;
  }
}
