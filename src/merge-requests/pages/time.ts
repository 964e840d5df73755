// Dates on the merge request pages as the issue pages show them: UTC, to the minute, in <time>.
import { isoTime } from '../../platform/clock.js';
import { html, type Html } from '../../platform/web/html.js';

export function when(ms: number | null): Html {
  const iso = isoTime(ms);
  return iso ? html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>` : html``;
}
