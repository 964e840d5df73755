// Ruby's File.fnmatch? with FNM_PATHNAME | FNM_DOTMATCH | FNM_EXTGLOB, which GitLab's `rules:changes`
// and `rules:exists` match paths with: `*` and `?` stop at `/`, `**/` spans directories (zero or
// more), `[...]` is a class (`[!...]` negated), `{a,b}` alternatives, `\` escapes; dot files match.
// The pattern comes from the file: it is compiled for RE2, whose matching time is linear.
import { RE2JS } from 're2js';

function translate(pattern: string, start: number, inBraces: boolean): { source: string; end: number } {
  let source = '';
  let i = start;
  while (i < pattern.length) {
    const char = pattern[i];
    if (inBraces && (char === ',' || char === '}')) return { source, end: i };
    if (char === '\\' && i + 1 < pattern.length) {
      source += pattern[i + 1].replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      i += 2;
    } else if (char === '*' && pattern[i + 1] === '*' && pattern[i + 2] === '/' && (i === 0 || pattern[i - 1] === '/')) {
      source += '(?:[^/]*/)*';
      i += 3;
    } else if (char === '*') {
      source += '[^/]*';
      i += 1;
    } else if (char === '?') {
      source += '[^/]';
      i += 1;
    } else if (char === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close === -1) {
        source += '\\[';
        i += 1;
      } else {
        const body = pattern.slice(i + 1, close);
        const negated = body.startsWith('!') || body.startsWith('^');
        source += `[${negated ? '^/' : ''}${(negated ? body.slice(1) : body).replace(/[\\\]]/g, '\\$&')}]`;
        i = close + 1;
      }
    } else if (char === '{') {
      const alternatives: string[] = [];
      let j = i + 1;
      for (;;) {
        const inner = translate(pattern, j, true);
        alternatives.push(inner.source);
        if (inner.end >= pattern.length) return { source: source + '\\{' + alternatives.join(','), end: inner.end };
        j = inner.end + 1;
        if (pattern[inner.end] === '}') break;
      }
      source += `(?:${alternatives.join('|')})`;
      i = j;
    } else {
      source += char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      i += 1;
    }
  }
  return { source, end: i };
}

const cache = new Map<string, RE2JS | null>();

/** Whether `path` matches the glob `pattern`. */
export function fnmatch(pattern: string, path: string): boolean {
  let compiled = cache.get(pattern);
  if (compiled === undefined) {
    try {
      compiled = RE2JS.compile(`^${translate(pattern, 0, false).source}$`);
    } catch {
      compiled = null; // A class RE2 cannot read matches nothing.
    }
    if (cache.size > 1000) cache.clear();
    cache.set(pattern, compiled);
  }
  return compiled !== null && compiled.matcher(path).matches();
}

/** Whether the pattern has glob characters (an exact path is looked up, not matched). */
export const isGlob = (pattern: string) => /[*?[{\\]/.test(pattern);

/**
 * A `local` include's wildcard (GitLab's search_files_by_wildcard_path): `**` is anything, `*` anything
 * but `/`, everything else literal, the whole path matched.
 */
export function localWildcard(pattern: string): (path: string) => boolean {
  const source = pattern.split('**').map((part) => part.split('*').map((text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('[^/]*?')).join('.*?');
  const compiled = RE2JS.compile(`^${source}$`);
  return (path) => compiled.matcher(path).matches();
}
