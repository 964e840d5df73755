// What the deploy key and deploy token forms share: a text field of a posted form, and the list of a
// service's refusals shown above the form (field names as GitLab's forms word them).
import { html, type Html } from '../../platform/web/html.js';
import { isoTime } from '../../platform/clock.js';

export type Form = Record<string, string | string[]>;

export function formText(form: Form, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value : '';
}

/** A posted id from a pattern group, or null (the page answers "not found" rather than a 500). */
export function formId(value: string | undefined): number | null {
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

const LABELS: Record<string, string> = { fingerprint_sha256: 'Key', key: 'Key', expires_at: 'Expiration date' };

export function refusals(errors: Record<string, string[]> | undefined): Html {
  const items = Object.entries(errors ?? {}).map(([field, messages]) => html`<li>${LABELS[field] ?? field[0].toUpperCase() + field.slice(1).replace(/_/g, ' ')} ${messages.join(', ')}</li>`);
  return items.length ? html`<ul class="error" role="alert">${items}</ul>` : html``;
}

/** A stored time as its day, e.g. 2026-11-29. */
export const day = (time: number | null | undefined): string | undefined => isoTime(time)?.slice(0, 10);
