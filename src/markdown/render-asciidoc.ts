// AsciiDoc to HTML with Asciidoctor.js, made as safe as Markdown (render-markdown.ts): Asciidoctor
// runs in its `secure` safe mode (no file is read: an include becomes a link, no document attribute
// reaches the file system), and since AsciiDoc lets a text pass raw HTML through (`++++` blocks,
// `pass:[…]`), its output is then cut down to an allowlist of elements and attributes (GitLab runs
// its SanitizationFilter after Asciidoctor too). Links keep only http(s), mailto and relative
// targets; relative links and images resolve in the repository as Markdown's do; links elsewhere get
// rel="nofollow noreferrer noopener". Pure: run on its worker thread (render-asciidoc-worker.ts).
import sanitizeHtml from 'sanitize-html';
import { isSafeLink, type RenderOptions } from './render-markdown.js';
import { resolveRelative } from './relative-links.js';

/** What an Asciidoctor processor offers here (`Asciidoctor()` of @asciidoctor/core). */
export interface AsciidocProcessor {
  convert(text: string, options: Record<string, unknown>): unknown;
}

const BLOCKS = ['div', 'p', 'pre', 'code', 'blockquote', 'hr', 'br', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'dl', 'dt', 'dd'];
const INLINES = ['a', 'span', 'strong', 'b', 'em', 'i', 'u', 's', 'del', 'ins', 'mark', 'sub', 'sup', 'kbd', 'abbr', 'small', 'img'];
const TABLES = ['table', 'caption', 'colgroup', 'col', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td'];

const ALLOWED: sanitizeHtml.IOptions = {
  allowedTags: [...BLOCKS, ...INLINES, ...TABLES, 'details', 'summary'],
  allowedAttributes: {
    '*': ['class', 'id', 'title'],
    a: ['href', 'rel'],
    img: ['src', 'alt', 'width', 'height'],
    ol: ['start', 'type', 'reversed'],
    th: ['colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
    code: ['data-lang'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  // Asciidoctor's own ids and classes are kept; style attributes (table widths) never pass.
  disallowedTagsMode: 'escape',
};

function transformLinks(options: RenderOptions): sanitizeHtml.IOptions['transformTags'] {
  const relative = options.relativeLinks;
  const external = (href: string) => /^https?:/i.test(href) && !(options.baseUrl && href.startsWith(`${options.baseUrl}/`));
  return {
    a: (tagName, attribs) => {
      let href = attribs.href ?? '';
      if (!isSafeLink(href)) href = '';
      else if (relative) href = resolveRelative(href, relative, 'link');
      const { rel: _rel, ...rest } = attribs;
      return { tagName, attribs: { ...rest, href, ...(external(href) ? { rel: 'nofollow noreferrer noopener' } : {}) } };
    },
    img: (tagName, attribs) => {
      const src = attribs.src ?? '';
      return { tagName, attribs: { ...attribs, src: !isSafeLink(src) ? '' : relative ? resolveRelative(src, relative, 'image') : src } };
    },
  };
}

export function renderAsciidoc(processor: AsciidocProcessor, text: string, options: RenderOptions = {}): string {
  const converted = processor.convert(text, {
    safe: 'secure',
    standalone: false,
    attributes: {
      // The document title is shown as a heading, as GitLab shows it; links between AsciiDoc files keep `.adoc`.
      showtitle: true,
      outfilesuffix: '.adoc',
      'allow-uri-read': null,
    },
  });
  return sanitizeHtml(String(converted), { ...ALLOWED, transformTags: transformLinks(options) });
}
