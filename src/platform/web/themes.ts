// A user's theme choice over the stylesheet's dark rules. The stylesheet is written with the dark
// colours inside `@media (prefers-color-scheme: dark)`; each such block is served twice: under the
// media query for pages that follow the browser (`<html>` without a class, or not `.theme-light`),
// and unconditionally for `<html class="theme-dark">`. So the light and dark rules stay written once.

const DARK_MEDIA = '@media (prefers-color-scheme: dark){';

/** The end of the block whose body starts at `from` (the index after its `{`). */
function blockEnd(css: string, from: number): number {
  let depth = 1;
  for (let i = from; i < css.length; i += 1) {
    if (css[i] === '{') depth += 1;
    else if (css[i] === '}') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  throw new Error('unbalanced braces in the stylesheet');
}

function scopeSelector(selector: string, scope: string): string {
  const trimmed = selector.trim();
  if (trimmed === ':root' || trimmed === 'html') return scope;
  return `${scope} ${trimmed}`;
}

/** Every rule of `css` (flat rules and nested @media blocks) under `scope`. */
export function scopeRules(css: string, scope: string): string {
  const source = css.replace(/\/\*[\s\S]*?\*\//g, '');
  let out = '';
  let i = 0;
  while (i < source.length) {
    const open = source.indexOf('{', i);
    if (open === -1) break;
    const prelude = source.slice(i, open).trim();
    const end = blockEnd(source, open + 1);
    const body = source.slice(open + 1, end);
    if (prelude.startsWith('@media')) out += `${prelude}{${scopeRules(body, scope)}}`;
    else if (prelude.startsWith('@')) out += `${prelude}{${body}}`;
    else if (prelude !== '') out += `${prelude.split(',').map((selector) => scopeSelector(selector, scope)).join(',')}{${body}}`;
    i = end + 1;
  }
  return out;
}

export function withThemeClasses(css: string): string {
  let out = '';
  let i = 0;
  for (;;) {
    const start = css.indexOf(DARK_MEDIA, i);
    if (start === -1) return out + css.slice(i);
    const bodyStart = start + DARK_MEDIA.length;
    const end = blockEnd(css, bodyStart);
    const body = css.slice(bodyStart, end);
    out += css.slice(i, start);
    out += `${DARK_MEDIA}${scopeRules(body, 'html:not(.theme-light)')}}\n${scopeRules(body, 'html.theme-dark')}\n`;
    i = end + 1;
  }
}
