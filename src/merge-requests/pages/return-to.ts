// Where a form posted from the Changes tab lands again: the tab on the page of files and in the view
// it was posted from (a long diff is shown a page at a time), at the anchor of what the post made; a
// form of the Overview lands on the Overview. The place travels in hidden fields and is read back
// only as a page number and a view name, never as a path.
import { html, type Html } from '../../platform/web/html.js';
import { str } from './shared.js';

/** The Changes tab as a reader sees it: which page of files, in which view. */
export interface ChangesPlace {
  page: number;
  view: 'inline' | 'parallel';
}

/** The hidden fields that bring a post back to this place of the Changes tab. */
export function returnFields(place: ChangesPlace | undefined): Html {
  if (!place) return html``;
  return html`<input type="hidden" name="return_to" value="diffs">${place.page > 1 ? html`<input type="hidden" name="return_page" value="${place.page}">` : ''}${place.view === 'parallel' ? html`<input type="hidden" name="return_view" value="parallel">` : ''}`;
}

/** The URL a post of these fields lands on; `fallback` when the form says nothing of where it came from. */
export function returnPath(self: string, form: Record<string, unknown>, anchor: string, fallback: 'overview' | 'diffs' = 'overview'): string {
  const to = str(form.return_to) || (fallback === 'diffs' ? 'diffs' : '');
  if (to !== 'diffs') return `${self}${anchor}`;
  const query = new URLSearchParams();
  const page = str(form.return_page);
  if (/^\d{1,6}$/.test(page) && Number(page) > 1) query.set('page', String(Number(page)));
  if (str(form.return_view) === 'parallel') query.set('view', 'parallel');
  const search = query.toString();
  return `${self}/diffs${search ? `?${search}` : ''}${anchor}`;
}

/** A page number from a query string (the diff view's `page`), 1 when absent or not a number. */
export function pageOf(value: string | undefined): number {
  return /^\d{1,6}$/.test(value ?? '') && Number(value) > 0 ? Number(value) : 1;
}
