// Relative links and images of a Markdown file in a repository (GitLab's RelativeLinkFilter): a link
// `docs/setup.md` in `guide/README.md` leads to the file `guide/docs/setup.md` at the same ref, an
// image to its raw content; a target starting with `/` is taken from the repository's root; `..`
// never climbs above it. Anchors, queries and targets with a scheme are left alone.

export interface RelativeLinks {
  /** `/<project>/-/blob/<ref>`: where links to files resolve. */
  blobBase: string;
  /** `/<project>/-/raw/<ref>`: where images resolve. */
  rawBase: string;
  /** The rendered file's directory in the repository ('' for the root). */
  directory: string;
}

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Pure: the address `href` leads to, or `href` itself when it is not relative to the repository. */
export function resolveRelative(href: string, links: RelativeLinks, kind: 'link' | 'image'): string {
  if (href === '' || href.startsWith('#') || href.startsWith('//') || HAS_SCHEME.test(href)) return href;
  const cut = href.search(/[?#]/);
  const target = cut < 0 ? href : href.slice(0, cut);
  const suffix = cut < 0 ? '' : href.slice(cut);
  if (target === '') return href;
  const segments = target.startsWith('/') ? [] : links.directory.split('/').filter((segment) => segment !== '');
  for (const segment of target.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `${kind === 'image' ? links.rawBase : links.blobBase}/${segments.join('/')}${suffix}`;
}
