// Dates as pages show them: an exact UTC time (in the element's title and datetime) and how long ago,
// in GitLab's words ("3 days ago").
import { html, type Html } from '../../platform/web/html.js';

const UNITS: [number, string][] = [
  [365 * 86400, 'year'],
  [30 * 86400, 'month'],
  [7 * 86400, 'week'],
  [86400, 'day'],
  [3600, 'hour'],
  [60, 'minute'],
];

/** Pure: "just now", "1 minute ago", "3 days ago", "in 2 hours" (clock skew). */
export function timeAgo(seconds: number, nowSeconds: number): string {
  const delta = nowSeconds - seconds;
  const size = Math.abs(delta);
  for (const [unit, name] of UNITS) {
    if (size >= unit) {
      const count = Math.floor(size / unit);
      const words = `${count} ${name}${count === 1 ? '' : 's'}`;
      return delta >= 0 ? `${words} ago` : `in ${words}`;
    }
  }
  return 'just now';
}

export function exactTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
}

export function timeElement(seconds: number, nowMs: number): Html {
  return html`<time datetime="${new Date(seconds * 1000).toISOString()}" title="${exactTime(seconds)}">${timeAgo(seconds, Math.floor(nowMs / 1000))}</time>`;
}
