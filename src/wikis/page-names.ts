// How a wiki page is named (GitLab's Wiki::MARKUPS and WikiPage): a file `<slug>.<extension>` of the
// wiki repository, the extension giving its format; a title becomes a path by putting `-` for spaces
// (directories kept), and a slug's last segment is the title shown, `-` read back as a space.
// Pure functions, table-tested.

export const FORMATS = ['markdown', 'rdoc', 'asciidoc', 'org'] as const;
export type WikiFormat = (typeof FORMATS)[number];

/** The extension a new page of each format gets, and every extension read as it. */
const EXTENSIONS: Record<WikiFormat, { written: string; read: string[] }> = {
  markdown: { written: 'md', read: ['md', 'markdown', 'mdown', 'mkdn', 'mkd', 'livemd'] },
  rdoc: { written: 'rdoc', read: ['rdoc'] },
  asciidoc: { written: 'asciidoc', read: ['asciidoc', 'adoc'] },
  org: { written: 'org', read: ['org'] },
};

export const FORMAT_NAMES: Record<WikiFormat, string> = { markdown: 'Markdown', rdoc: 'RDoc', asciidoc: 'AsciiDoc', org: 'Org' };

/** WikiPage's path limits (GitLab's MAX_TITLE_BYTES and MAX_DIRECTORY_BYTES). */
export const MAX_TITLE_BYTES = 245;
export const MAX_DIRECTORY_BYTES = 255;

/** The page a file of the repository is (its slug and format), or null for any other file (an attachment). */
export function pageOfFile(path: string): { slug: string; format: WikiFormat } | null {
  const dot = path.lastIndexOf('.');
  if (dot <= 0 || path.lastIndexOf('/') > dot) return null;
  const extension = path.slice(dot + 1).toLowerCase();
  const format = FORMATS.find((name) => EXTENSIONS[name].read.includes(extension));
  return format ? { slug: path.slice(0, dot), format } : null;
}

export function fileOfPage(slug: string, format: WikiFormat): string {
  return `${slug}.${EXTENSIONS[format].written}`;
}

/** The title a slug shows: its last segment, `-` read as a space. */
export function titleOfSlug(slug: string): string {
  return slug.slice(slug.lastIndexOf('/') + 1).replace(/-/g, ' ');
}

export type SlugResult = { ok: true; slug: string } | { ok: false; field: 'title'; message: string };

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/**
 * The slug a title makes: spaces as `-`, empty segments dropped, `.` and `..` and git's own `.git`
 * refused (they would leave the wiki's tree), each segment within GitLab's byte limits.
 */
export function slugOfTitle(title: string): SlugResult {
  const segments = title
    .trim()
    .split('/')
    .map((segment) => segment.trim().replace(/\s+/g, '-'))
    .filter((segment) => segment !== '');
  if (segments.length === 0) return { ok: false, field: 'title', message: "can't be blank" };
  for (const segment of segments) {
    if (segment === '.' || segment === '..' || segment.toLowerCase() === '.git' || [...segment].some((char) => char.charCodeAt(0) < 0x20 || char === '\x7f')) return { ok: false, field: 'title', message: 'is invalid' };
  }
  const last = segments[segments.length - 1];
  if (bytes(last) > MAX_TITLE_BYTES) return { ok: false, field: 'title', message: `exceeds the limit of ${MAX_TITLE_BYTES} bytes` };
  const long = segments.slice(0, -1).find((segment) => bytes(segment) > MAX_DIRECTORY_BYTES);
  if (long) return { ok: false, field: 'title', message: `exceeds the limit of ${MAX_DIRECTORY_BYTES} bytes for directory name "${long}"` };
  return { ok: true, slug: segments.join('/') };
}

/** A renamed page keeps its directory unless the new title names one (WikiPage#update). */
export function slugOfRenamed(current: string, title: string): SlugResult {
  const directory = current.includes('/') ? current.slice(0, current.lastIndexOf('/')) : '';
  return slugOfTitle(title.includes('/') || directory === '' ? title : `${directory}/${title}`);
}
