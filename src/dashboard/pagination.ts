// The dashboard lists' page number and their Previous/Next links (pages of 20, as "your work" pages).
import { html, type Html } from '../platform/web/html.js';

export const PER_PAGE = 20;

/** The page asked for, 1 to 1000 (anything else is the first). */
export function pageNumberOf(query: Record<string, string>): number {
  return Math.max(1, Math.min(1000, Number.parseInt(query.page ?? '1', 10) || 1));
}

/** Previous and Next; `more` says a row beyond this page was read (PER_PAGE + 1 asked). */
export function pagination(number: number, more: boolean, link: (page: number) => string): Html {
  return html`<nav class="pagination" aria-label="Pages">${number > 1 ? html`<a href="${link(number - 1)}" rel="prev">Previous</a>` : ''}${more ? html`<a href="${link(number + 1)}" rel="next">Next</a>` : ''}</nav>`;
}
