// A label as pages show it: its colour as a dot (an SVG image: the CSP allows no inline styles) and
// its title, with its description on hover.
import { html, type Html } from '../platform/web/html.js';

export function colourDot(color: string): Html {
  const hex = /^#[0-9a-f]{3}([0-9a-f]{3})?$/i.test(color) ? color.slice(1) : '999999';
  return html`<img src="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 2 2'%3E%3Ccircle cx='1' cy='1' r='1' fill='%23${hex}'/%3E%3C/svg%3E" alt="">`;
}

export function labelChip(label: { title: string; color: string; description?: string | null }, href?: string): Html {
  const inner = html`${colourDot(label.color)}${label.title}`;
  return href
    ? html`<a class="label-chip" href="${href}"${label.description ? html` title="${label.description}"` : ''}>${inner}</a>`
    : html`<span class="label-chip"${label.description ? html` title="${label.description}"` : ''}>${inner}</span>`;
}
