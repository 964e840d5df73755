// What a page handler returns: a rendered page or a redirect (303 after a form, so the browser GETs).
import type { Html } from './html.js';
import type { PageFrame } from './layout.js';

export interface PageResult extends PageFrame {
  kind: 'page';
  title: string;
  body: Html;
  status?: number;
  flash?: string | null;
}

export interface RedirectResult {
  kind: 'redirect';
  location: string;
  flash?: string | null;
  status?: number;
}

/** A piece of a page for htmx to swap in: no layout around it (`hx-get` of more lines, a list). */
export interface FragmentResult {
  kind: 'fragment';
  body: Html;
  status?: number;
}

/** The handler wrote the answer itself (a download streamed from git, raw file content). */
export interface AnsweredResult {
  kind: 'answered';
}

export type PageOutcome = PageResult | RedirectResult | FragmentResult | AnsweredResult;

export function fragment(body: Html, status?: number): FragmentResult {
  return { kind: 'fragment', body, status };
}

export const ANSWERED: AnsweredResult = { kind: 'answered' };

export function page(input: { title: string; body: Html; status?: number; flash?: string | null } & PageFrame): PageResult {
  return { kind: 'page', ...input };
}

export function redirect(location: string, flash?: string | null, status = 303): RedirectResult {
  return { kind: 'redirect', location, flash, status };
}

/**
 * A `return_to` that only ever points inside Kiln: an absolute path, not `//host` or `/\host`
 * (which browsers treat as another origin). Anything else falls back to `fallback`.
 */
export function safeReturnTo(value: unknown, fallback = '/'): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  // Control characters could split the Location header or be dropped by browsers into `//host`.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\\]/.test(value)) return fallback;
  return value;
}
