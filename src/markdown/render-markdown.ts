// Markdown to HTML with markdown-it, safe by construction: raw HTML is never passed through (it is
// shown as text), links and images keep only http(s), mailto and relative targets (no javascript:,
// vbscript:, data: or file:), and GitLab references (`#12`, `@user`) become links only when the
// caller resolved them beforehand (references.ts), so an unreadable issue is never linked or named.
// This is the pure renderer, run on the worker threads (render-worker.ts) and nowhere else on a
// request's path: its cost grows faster than its input on some texts (bounded-render.ts).
import MarkdownIt from 'markdown-it';
import { resolveRelative, type RelativeLinks } from './relative-links.js';
import type Token from 'markdown-it/lib/token.mjs';
import type StateCore from 'markdown-it/lib/rules_core/state_core.mjs';

export interface ResolvedIssue {
  url: string;
  title: string;
  projectId: number;
  issueId: number;
}

export interface ResolvedMergeRequest {
  url: string;
  title: string;
  projectId: number;
  mergeRequestId: number;
}

/** A commit of a repository the viewer may read: `text` is what the link shows (GitLab's short id). */
export interface ResolvedCommit {
  url: string;
  title: string;
  text: string;
  projectId: number;
  sha: string;
}

export interface ResolvedUser {
  url: string;
  name: string;
  id: number;
}

/** References the caller may see, by their text: `#12` → issue, `!7` → merge request, `alice` → user. */
export interface References {
  issues: ReadonlyMap<number, ResolvedIssue>;
  mergeRequests?: ReadonlyMap<number, ResolvedMergeRequest>;
  /** `project#12`, `group/project!7`: by crossProjectKey of the path as written. */
  crossProject?: ReadonlyMap<string, ResolvedIssue | ResolvedMergeRequest>;
  users: ReadonlyMap<string, ResolvedUser>;
  /** `1a2b3c4`, `project@1a2b3c4`: by commitKey of the path and SHA as written. */
  commits?: ReadonlyMap<string, ResolvedCommit>;
}

export interface RenderOptions {
  /** The markup language of the text: Markdown (the default) or AsciiDoc (render-asciidoc.ts, which reads the link options only). */
  format?: 'markdown' | 'asciidoc';
  /** GitLab Flavored Markdown (the `full` pipeline): autolinks and references. */
  gfm?: boolean;
  references?: References;
  /** This instance's URL: links elsewhere get rel="nofollow noreferrer noopener", as GitLab's ExternalLinkFilter. */
  baseUrl?: string;
  /** A file of a repository: its relative links and images resolve in the repository (relative-links.ts). */
  relativeLinks?: RelativeLinks;
  /**
   * `/<project>`: where `/uploads/<secret>/<name>` links and images of the text lead (GitLab's
   * UploadLinkFilter); without it they stay as written.
   */
  uploadsBase?: string;
}

/**
 * Block nesting beyond which a text is not rendered (markdown-it's default `maxNesting`, the depth
 * GitLab's cmark-gfm engine allowed lists; a quote is one level, a list two). markdown-it would drop
 * what lies deeper without a word: the renderer throws NestingTooDeep instead and the text is shown as
 * plain text with a notice.
 */
export const MAX_NESTING = 100;

export class NestingTooDeep extends Error {
  constructor() {
    super(`Markdown nested deeper than ${MAX_NESTING} levels`);
  }
}

/** `#12` not preceded by a word character (GitLab's issue reference pattern, local form). */
export const ISSUE_REFERENCE = /(?<![\w&/#])#(\d{1,9})\b/g;
/** `!7` not preceded by a word character (GitLab's merge request reference pattern, local form). */
export const MERGE_REQUEST_REFERENCE = /(?<![\w&/!])!(\d{1,9})\b/g;
/** One segment of a project or group path (GitLab's path format, at most 255 characters). */
const PATH_SEGMENT = '[a-zA-Z0-9_][a-zA-Z0-9_.-]{0,254}';
/**
 * `project#12`, `group/sub/project!7` (GitLab's cross-project reference forms): the path (1), the
 * sigil (2) and the iid (3). The path must not continue a word, path, address or URL, so each run of
 * path characters is tried once and the scan stays linear.
 */
export const PROJECT_REFERENCE = new RegExp(`(?<![\\w/.@&#!-])((?:${PATH_SEGMENT}/){0,20}${PATH_SEGMENT})([#!])(\\d{1,9})\\b`, 'g');

/**
 * A commit (GitLab's Commit.reference_pattern): 7 to 40 hexadecimal digits, optionally after a
 * project path and `@` — the path (1) and the SHA (2) — not continuing a word, path or reference.
 */
export const COMMIT_REFERENCE = new RegExp(`(?<![\\w/.@&#!-])(?:((?:${PATH_SEGMENT}/){0,20}${PATH_SEGMENT})@)?([0-9a-fA-F]{7,40})(?![\\w-])`, 'g');

/** The key of a commit reference in References.commits ('' for the context project). */
export function commitKey(writtenPath: string | undefined, sha: string): string {
  return `${(writtenPath ?? '').toLowerCase()}@${sha.toLowerCase()}`;
}

/** The key of a cross-project reference in References.crossProject. */
export function crossProjectKey(writtenPath: string, sigil: string, iid: number): string {
  return `${writtenPath.toLowerCase()}${sigil}${iid}`;
}

/**
 * `@username` (User.reference_pattern): not preceded by a word character; trailing dots are
 * punctuation (withoutTrailingDots). At most GitLab's 255 characters of a username are taken.
 */
export const USER_REFERENCE = /(?<![\w`/])@([a-zA-Z0-9_.][a-zA-Z0-9_.-]{0,254})/g;

/**
 * The name without its trailing dots, by a loop: `/\.+$/` tries every run of dots up to the end, so a
 * long run followed by anything else is quadratic (50,000 dots took 5 s).
 */
export function withoutTrailingDots(name: string): string {
  let end = name.length;
  while (end > 0 && name.charCodeAt(end - 1) === 46) end -= 1;
  return name.slice(0, end);
}

const SAFE_LINK = /^(https?:|mailto:)/i;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Only http(s), mailto and scheme-less (relative, anchors) targets survive; everything else is text. */
export function isSafeLink(url: string): boolean {
  // Browsers ignore tabs and newlines inside a scheme and leading control characters or spaces.
  // eslint-disable-next-line no-control-regex
  const compact = url.replace(/[\u0000-\u0020\u007f]/g, '');
  if (SAFE_LINK.test(compact)) return true;
  // markdown-it has already decoded entities (`javascript&#58;` is `javascript:` here).
  return !HAS_SCHEME.test(compact) && !compact.startsWith('//');
}

function parser(gfm: boolean): MarkdownIt {
  const md = new MarkdownIt({ html: false, linkify: gfm, typographer: false });
  // Not in the type definitions; the preset's value, said here.
  (md.options as { maxNesting?: number }).maxNesting = MAX_NESTING;
  md.validateLink = isSafeLink;
  const tokenize = md.block.tokenize;
  md.block.tokenize = function (state, startLine, endLine) {
    const depth = state.level;
    if (depth >= MAX_NESTING) throw new NestingTooDeep();
    return tokenize.call(this, state, startLine, endLine);
  };
  md.core.ruler.push('gitlab_references', (state: StateCore) => linkReferences(state));
  if (gfm) md.core.ruler.push('task_lists', (state: StateCore) => taskLists(state));
  const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));
  md.renderer.rules.link_open = (tokens, index, options, env, self) => {
    const relative = (env as { relativeLinks?: RelativeLinks }).relativeLinks;
    if (relative) tokens[index].attrSet('href', resolveRelative(tokens[index].attrGet('href') ?? '', relative, 'link'));
    uploadLink(tokens[index], 'href', env);
    const href = tokens[index].attrGet('href') ?? '';
    const baseUrl = (env as { baseUrl?: string }).baseUrl;
    if (/^https?:/i.test(href) && !(baseUrl && href.startsWith(`${baseUrl}/`))) tokens[index].attrSet('rel', 'nofollow noreferrer noopener');
    return defaultLinkOpen(tokens, index, options, env, self);
  };
  const defaultImage = md.renderer.rules.image!;
  md.renderer.rules.image = (tokens, index, options, env, self) => {
    const relative = (env as { relativeLinks?: RelativeLinks }).relativeLinks;
    if (relative) tokens[index].attrSet('src', resolveRelative(tokens[index].attrGet('src') ?? '', relative, 'image'));
    uploadLink(tokens[index], 'src', env);
    return defaultImage(tokens, index, options, env, self);
  };
  return md;
}

/** `/uploads/…` under the project's path, when the text belongs to one (RenderOptions.uploadsBase). */
function uploadLink(token: Token, attribute: 'href' | 'src', env: unknown): void {
  const base = (env as { uploadsBase?: string }).uploadsBase;
  const target = token.attrGet(attribute);
  if (base && target?.startsWith('/uploads/')) token.attrSet(attribute, `${base}${target}`);
}

const PLAIN = parser(false);
const GFM = parser(true);

/**
 * Renders on the calling thread, unbounded: the worker threads call it (render-worker.ts); everything
 * else renders through renderGitlabMarkdown or renderBounded. Throws NestingTooDeep.
 */
export function renderMarkdown(text: string, options: RenderOptions = {}): string {
  const md = options.gfm ? GFM : PLAIN;
  // `env.references` is markdown-it's own (link reference definitions, `[x]: /url`): GitLab's
  // references travel under another name.
  return md.render(text, { gitlabReferences: options.gfm ? options.references : undefined, baseUrl: options.baseUrl, relativeLinks: options.relativeLinks, uploadsBase: options.uploadsBase });
}

const TASK_MARKER = /^\[([ xX])\](?:[ \t]|$)/;

/**
 * GitLab's task lists: a list item starting with `[ ]` or `[x]` gets a checkbox, disabled (a page
 * that lets its reader tick them enables them), named by the item's source line (0-based) so a tick
 * can be written back to that line (issues/task-list.ts).
 */
function taskLists(state: StateCore): void {
  const tokens = state.tokens;
  for (let index = 0; index + 2 < tokens.length; index += 1) {
    const item = tokens[index];
    const inline = tokens[index + 2];
    if (item.type !== 'list_item_open' || tokens[index + 1].type !== 'paragraph_open' || inline.type !== 'inline' || !item.map) continue;
    const marker = TASK_MARKER.exec(inline.content);
    const first = inline.children?.[0];
    if (!marker || !first || first.type !== 'text' || !first.content.startsWith(marker[0].trimEnd())) continue;
    first.content = first.content.slice(marker[0].trimEnd().length).replace(/^[ \t]/, '');
    const label = inline.content.slice(marker[0].length).split('\n')[0].trim().slice(0, 200) || 'Task';
    const line = item.map[0];
    const box = new state.Token('html_inline', '', 0);
    box.content = `<input type="checkbox" class="task-list-item-checkbox" name="task[]" value="${line}" data-task-line="${line}" aria-label="${state.md.utils.escapeHtml(label)}"${marker[1] === ' ' ? '' : ' checked'} disabled> `;
    inline.children!.unshift(box);
    item.attrJoin('class', 'task-list-item');
  }
}

/** Replace resolved references in text tokens outside links and code with links to them. */
function linkReferences(state: StateCore): void {
  const references = (state.env as { gitlabReferences?: References }).gitlabReferences;
  if (!references || (references.issues.size === 0 && references.users.size === 0 && !references.mergeRequests?.size && !references.crossProject?.size && !references.commits?.size)) return;
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const out: Token[] = [];
    let linkDepth = 0;
    for (const token of block.children) {
      if (token.type === 'link_open') linkDepth += 1;
      if (token.type === 'link_close') linkDepth -= 1;
      if (token.type !== 'text' || linkDepth > 0) {
        out.push(token);
        continue;
      }
      out.push(...splitText(state, token.content, references));
    }
    block.children = out;
  }
}

interface Match {
  start: number;
  end: number;
  href: string;
  title: string;
  attrs: Array<[string, string]>;
  /** What the link shows, when not the text it replaces. */
  text?: string;
}

/** The link of an issue or merge request reference found at `match`. */
function issuableMatch(match: RegExpMatchArray, found: ResolvedIssue | ResolvedMergeRequest): Match {
  const attrs: Array<[string, string]> =
    'issueId' in found
      ? [['data-reference-type', 'issue'], ['data-project', String(found.projectId)], ['data-issue', String(found.issueId)], ['class', 'gfm gfm-issue']]
      : [['data-reference-type', 'merge_request'], ['data-project', String(found.projectId)], ['data-merge-request', String(found.mergeRequestId)], ['class', 'gfm gfm-merge_request']];
  return { start: match.index!, end: match.index! + match[0].length, href: found.url, title: found.title, attrs };
}

function findMatches(text: string, references: References): Match[] {
  const matches: Match[] = [];
  for (const match of text.matchAll(ISSUE_REFERENCE)) {
    const issue = references.issues.get(Number(match[1]));
    if (issue) matches.push(issuableMatch(match, issue));
  }
  if (references.mergeRequests?.size) {
    for (const match of text.matchAll(MERGE_REQUEST_REFERENCE)) {
      const mr = references.mergeRequests.get(Number(match[1]));
      if (mr) matches.push(issuableMatch(match, mr));
    }
  }
  if (references.crossProject?.size) {
    for (const match of text.matchAll(PROJECT_REFERENCE)) {
      const found = references.crossProject.get(crossProjectKey(match[1], match[2], Number(match[3])));
      if (found) matches.push(issuableMatch(match, found));
    }
  }
  if (references.commits?.size) {
    for (const match of text.matchAll(COMMIT_REFERENCE)) {
      const commit = references.commits.get(commitKey(match[1], match[2]));
      if (!commit) continue;
      matches.push({
        start: match.index!, end: match.index! + match[0].length, href: commit.url, title: commit.title, text: match[1] ? `${match[1]}@${commit.text}` : commit.text,
        attrs: [['data-reference-type', 'commit'], ['data-project', String(commit.projectId)], ['data-commit', commit.sha], ['class', 'gfm gfm-commit']],
      });
    }
  }
  for (const match of text.matchAll(USER_REFERENCE)) {
    const username = withoutTrailingDots(match[1]);
    const user = references.users.get(username.toLowerCase());
    if (!user) continue;
    matches.push({
      start: match.index, end: match.index + 1 + username.length, href: user.url, title: user.name,
      attrs: [['data-reference-type', 'user'], ['data-user', String(user.id)], ['class', 'gfm gfm-project_member']],
    });
  }
  return matches.sort((a, b) => a.start - b.start).filter((match, index, all) => index === 0 || match.start >= all[index - 1].end);
}

function splitText(state: StateCore, text: string, references: References): Token[] {
  const matches = findMatches(text, references);
  if (matches.length === 0) return [textToken(state, text)];
  const tokens: Token[] = [];
  let at = 0;
  for (const match of matches) {
    if (match.start > at) tokens.push(textToken(state, text.slice(at, match.start)));
    const open = new state.Token('link_open', 'a', 1);
    open.attrs = [['href', match.href], ['title', match.title], ...match.attrs];
    tokens.push(open, textToken(state, match.text ?? text.slice(match.start, match.end)), new state.Token('link_close', 'a', -1));
    at = match.end;
  }
  if (at < text.length) tokens.push(textToken(state, text.slice(at)));
  return tokens;
}

function textToken(state: StateCore, content: string): Token {
  const token = new state.Token('text', '', 0);
  token.content = content;
  return token;
}
