// The wiki pages' markup: the sidebar of pages, a page as read, the new and edit form (with a
// Markdown preview that works without JavaScript and in place with htmx), a page's history and the
// empty wiki's next step. Every text a user wrote is escaped (html``); rendered Markdown comes from
// the one sanitising renderer.
import { encodePathSegments } from '../platform/web/url-paths.js';
import type { PageContext } from '../platform/web/page-route.js';
import { csrfField } from '../platform/web/page-route.js';
import { html, raw, type Html } from '../platform/web/html.js';
import { localTime } from '../platform/web/local-time.js';
import type { CommitObject } from '../repositories/api.js';
import type { WikiPage, WikiPageRef } from './finder.js';
import { FORMAT_NAMES, FORMATS, titleOfSlug, type WikiFormat } from './page-names.js';

export interface WikiFormValues {
  title: string;
  content: string;
  format: WikiFormat;
  message: string;
}

/** A slug as a path of the pages: each segment encoded, the slashes kept. */
export function slugPath(root: string, slug: string): string {
  return `${root}/${encodePathSegments(slug)}`;
}

export function wikiSidebar(root: string, pages: WikiPageRef[], current: string | null): Html {
  return html`<aside class="issue-sidebar wiki-sidebar" aria-label="Wiki pages"><h2>Pages</h2>
${pages.length ? html`<ul class="wiki-pages">${pages.map((page) => html`<li><a href="${slugPath(root, page.slug)}"${page.slug === current ? html` aria-current="page"` : ''}>${page.slug.includes('/') ? html`<span class="muted">${page.slug.slice(0, page.slug.lastIndexOf('/') + 1)}</span>` : ''}${titleOfSlug(page.slug)}</a></li>`)}</ul>` : html`<p class="muted">No pages yet.</p>`}
<p><a href="${root}/pages">All pages</a></p></aside>`;
}

export function wikiLayout(main: Html, sidebar: Html): Html {
  return html`<div class="issue-layout wiki-layout"><div class="wiki-main">${main}</div>${sidebar}</div>`;
}

export function pageActions(root: string, page: WikiPage, writable: boolean): Html {
  const self = slugPath(root, page.slug);
  return html`<p class="actions"><a href="${self}/history">History</a>${writable ? html` <a class="button" href="${self}/edit">Edit</a> <a class="button secondary" href="${root}/new">New page</a>` : ''}</p>`;
}

export function pageArticle(rendered: string, version: string | null): Html {
  return html`${version ? html`<p class="muted" role="note">This is an older version of this page (${version.slice(0, 8)}).</p>` : ''}<div class="markdown wiki-content">${raw(rendered)}</div>`;
}

export function emptyWiki(root: string, writable: boolean): Html {
  return html`<div class="empty"><p>This wiki has no pages yet.</p><p class="muted">A wiki keeps a project's documentation beside its code: pages written in Markdown, linked to each other, each change kept in the wiki's own git repository.</p>
${writable ? html`<p><a class="button" href="${root}/new?title=home">Create your first page</a></p>` : html`<p class="muted">Members with at least the Developer role can create its first page.</p>`}</div>`;
}

export interface WikiFormTarget {
  action: string;
  cancel: string;
  previewAction: string;
  /** The page being edited (none for a new page). */
  slug: string | null;
  /** Where its delete form posts, for those who may delete it. */
  deleteAction: string | null;
}

export function wikiForm(context: PageContext, target: WikiFormTarget, values: WikiFormValues, error: string | null, preview: string | null): Html {
  const { action, cancel, previewAction } = target;
  return html`<form method="post" action="${action}" class="stacked" id="wiki-form">${csrfField(context)}${target.slug === null ? '' : html`<input type="hidden" name="slug" value="${target.slug}">`}
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<label for="wiki-title">Title</label><input type="text" id="wiki-title" name="title" value="${values.title}" required maxlength="4096" aria-describedby="wiki-title-help">
<p class="muted" id="wiki-title-help">A slash makes a directory: <code>guides/Setup</code>.</p>
<label for="wiki-format">Format</label><select id="wiki-format" name="format">${FORMATS.map((format) => html`<option value="${format}"${format === values.format ? html` selected` : ''}>${FORMAT_NAMES[format]}</option>`)}</select>
<label for="wiki-content">Content</label><textarea id="wiki-content" name="content" rows="16" aria-describedby="wiki-content-help">${values.content}</textarea>
<p class="muted" id="wiki-content-help">Link another page by its slug: <code>[Setup](guides/Setup)</code>.</p>
<label for="wiki-message">Commit message (optional)</label><input type="text" id="wiki-message" name="message" value="${values.message}" maxlength="1000">
<p class="actions"><button type="submit">Save changes</button> <button type="submit" class="secondary" formaction="${previewAction}" hx-post="${previewAction}" hx-target="#wiki-preview" hx-swap="outerHTML" hx-select="#wiki-preview">Preview</button> <a href="${cancel}">Cancel</a></p>
</form>
${previewSection(preview)}
${target.deleteAction ? html`<form method="post" action="${target.deleteAction}" class="danger-zone">${csrfField(context)}<button type="submit" class="danger">Delete page</button></form>` : ''}`;
}

export function previewSection(preview: string | null): Html {
  return html`<section id="wiki-preview" class="wiki-preview" aria-live="polite"${preview === null ? html` hidden` : ''}><h2>Preview</h2><div class="markdown">${raw(preview ?? '')}</div></section>`;
}

export function historyTable(root: string, slug: string, commits: CommitObject[], zone: string): Html {
  const self = slugPath(root, slug);
  if (commits.length === 0) return html`<p class="empty">No history.</p>`;
  return html`<table class="wiki-history"><caption class="visually-hidden">Versions of this page, newest first</caption><thead><tr><th scope="col">Version</th><th scope="col">Author</th><th scope="col">Message</th><th scope="col">Date</th></tr></thead><tbody>
${commits.map((commit) => html`<tr><td><a href="${self}?version_id=${commit.id}"><code>${commit.id.slice(0, 8)}</code></a></td><td>${commit.author.name}</td><td class="wrap-anywhere">${commit.message.split('\n')[0]}</td><td>${localTime(commit.author.seconds * 1000, zone)}</td></tr>`)}
</tbody></table>`;
}

export function pagesList(root: string, pages: WikiPageRef[]): Html {
  if (pages.length === 0) return html`<p class="empty">No pages yet.</p>`;
  return html`<ul class="wiki-page-list">${pages.map((page) => html`<li><a href="${slugPath(root, page.slug)}">${page.slug}</a> <span class="muted">${FORMAT_NAMES[page.format]}</span></li>`)}</ul>`;
}
