// Files of npm packages that pages use, served from Kiln itself (no CDN; the CSP allows `'self'`
// only): htmx, and highlight.js's accessible themes (a11y-light, a11y-dark) for the colours of
// highlighted code. Read once, on first use, from node_modules, where `npm install` put them.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const resolve = createRequire(import.meta.url).resolve;
const files = new Map<string, string>();

function packageFile(specifier: string): string {
  let text = files.get(specifier);
  if (text === undefined) {
    text = readFileSync(resolve(specifier), 'utf8');
    files.set(specifier, text);
  }
  return text;
}

/** htmx 2 (docs/decisions.md), minified as its package ships it. */
export function htmxScript(): string {
  return packageFile('htmx.org/dist/htmx.min.js');
}

/**
 * a11y-light's colours that fall under WCAG AA's 4.5:1 on the tinted rows of a diff (added, removed,
 * selected), each darkened just enough to keep it (checked by axe-core in test/browser): its strings'
 * `green` (#008000) is 4.48:1 on a removed line's #ffebe9.
 */
const DARKER_ON_TINTS: Record<string, string> = { '#007faa': '#005f80', '#aa5d00': '#8a4b00', '#d91e18': '#a8120d', green: '#007a00' };

/** The light theme for every visitor, the dark one for those whose system prefers dark. */
export function highlightThemes(): string {
  const light = packageFile('highlight.js/styles/a11y-light.min.css').replace(/#[0-9a-f]{6}\b|(?<=:)green\b/gi, (colour) => DARKER_ON_TINTS[colour.toLowerCase()] ?? colour);
  const dark = packageFile('highlight.js/styles/a11y-dark.min.css');
  // The themes' `.hljs` block colours a whole <pre>; Kiln colours tokens inside its own tables.
  const tokensOnly = (css: string) => css.replace(/pre code\.hljs\{[^}]*\}|code\.hljs\{[^}]*\}|\.hljs\{[^}]*\}/g, '');
  return `${tokensOnly(light)}\n@media (prefers-color-scheme: dark){${tokensOnly(dark)}}\n`;
}
