// Blob search over one ref of a repository with the system git, as GitLab's FileFinder does through
// Gitaly: files whose content contains the term (case-insensitive, literal, two lines of context
// around each match, binary files skipped) and files whose path contains it, narrowed by the
// `filename:`, `path:` and `extension:` filters of the query, ordered by path.
import { wildcardMatches } from '../platform/patterns/wildcard.js';
import { gitCall } from '../repositories/api.js';

/** GitLab's Blob search entity, without project_id (the caller adds it). */
export interface FoundBlob {
  basename: string;
  data: string;
  path: string;
  filename: string;
  id: null;
  ref: string;
  startline: number;
}

const CONTEXT_LINES = '2';
/** At most this many files are reported per repository (a runaway search stays bounded). */
export const MAX_FILES_PER_REPOSITORY = 1000;
const FIRST_LINES_OF_NAME_MATCH = 3;
const GREP_TIMEOUT_MS = 15_000;

/** Runs git (on a git thread, as every read of the repositories does); exit status 1 (grep found nothing) is an empty answer, not a failure. */
export async function git(repoPath: string, args: string[]): Promise<string> {
  const outcome = await gitCall(repoPath, args, { timeoutMs: GREP_TIMEOUT_MS });
  if (outcome.code === 1 && outcome.stderr.trim() === '') return '';
  if (outcome.code !== 0) throw new Error(`git ${args[0]} failed: ${outcome.stderr.trim() || `exit ${outcome.code}`}`);
  return outcome.stdout.toString();
}

export interface BlobQuery {
  term: string;
  filters: Array<{ kind: 'filename' | 'path' | 'extension'; matches: (path: string) => boolean }>;
}

/**
 * A filter as GitLab's (a `*` is any run of characters, case-insensitive): `filename:` ends the path,
 * `extension:` is what follows its last dot, `path:` appears anywhere in it. Matched as wildcards, not
 * as a RegExp built from the query (platform/patterns/wildcard.ts).
 */
function filterMatcher(kind: 'filename' | 'path' | 'extension', value: string): (path: string) => boolean {
  if (kind === 'filename') return (path) => wildcardMatches(value, path, { anchorStart: false, caseInsensitive: true });
  if (kind === 'extension') return (path) => wildcardMatches(`.${value}`, path, { anchorStart: false, caseInsensitive: true });
  return (path) => wildcardMatches(value, path, { anchorStart: false, anchorEnd: false, caseInsensitive: true });
}

/** `term filename:*.rb path:app extension:md` → the term and the filters (Gitlab::Search::Query). */
export function parseBlobQuery(query: string): BlobQuery {
  const filters: BlobQuery['filters'] = [];
  const rest: string[] = [];
  for (const word of query.split(/\s+/).filter(Boolean)) {
    const match = /^(filename|path|extension):(.+)$/.exec(word);
    if (!match) {
      rest.push(word);
      continue;
    }
    const kind = match[1] as 'filename' | 'path' | 'extension';
    filters.push({ kind, matches: filterMatcher(kind, match[2]) });
  }
  return { term: rest.join(' '), filters };
}

function basenameOf(path: string): string {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  return dot > slash + 1 ? path.slice(0, dot) : path;
}

function blob(path: string, ref: string, startline: number, lines: string[]): FoundBlob {
  return { basename: basenameOf(path), data: lines.length ? `${lines.join('\n')}\n` : '', path, filename: path, id: null, ref, startline };
}

/** Content matches: each file once, its chunks of matching lines with their context, in order. */
async function byContent(repoPath: string, ref: string, term: string): Promise<Map<string, FoundBlob>> {
  const found = new Map<string, FoundBlob>();
  if (term === '') return found;
  const out = await git(repoPath, ['grep', '-I', '-i', '-n', '-z', '--fixed-strings', `--before-context=${CONTEXT_LINES}`, `--after-context=${CONTEXT_LINES}`, '-e', term, ref, '--']);
  const prefix = `${ref}:`;
  for (const line of out.split('\n')) {
    if (line === '' || line === '--' || !line.startsWith(prefix)) continue;
    const [path, number, ...content] = line.slice(prefix.length).split('\0');
    let entry = found.get(path);
    if (!entry) {
      if (found.size >= MAX_FILES_PER_REPOSITORY) continue;
      entry = blob(path, ref, Number(number), []);
      found.set(path, entry);
    }
    entry.data += `${content.join('\0')}\n`;
  }
  return found;
}

/** Files whose path contains the term (every file for an empty term), with their first lines. */
async function byName(repoPath: string, ref: string, term: string, except: Set<string>): Promise<FoundBlob[]> {
  const names = (await git(repoPath, ['ls-tree', '-r', '-z', '--name-only', ref, '--'])).split('\0').filter(Boolean);
  const needle = term.toLowerCase();
  const matching = names.filter((name) => !except.has(name) && name.toLowerCase().includes(needle)).slice(0, MAX_FILES_PER_REPOSITORY);
  const found: FoundBlob[] = [];
  for (const path of matching) {
    const text = await git(repoPath, ['cat-file', 'blob', `${ref}:${path}`]).catch(() => '');
    // Binary files have no lines to show (git grep -I skips them too).
    const lines = text.includes('\0') || text === '' ? [] : text.replace(/\n$/, '').split('\n').slice(0, FIRST_LINES_OF_NAME_MATCH);
    found.push(blob(path, ref, 1, lines));
  }
  return found;
}

/** Whether `ref` names a commit in the repository (a branch, a tag or a commit id). */
export async function resolvesToCommit(repoPath: string, ref: string): Promise<boolean> {
  if (ref.startsWith('-') || ref.includes('..') || /[\s\0:]/.test(ref)) return false;
  return (await git(repoPath, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).catch(() => '')) !== '';
}

export async function grepBlobs(repoPath: string, ref: string, query: string): Promise<FoundBlob[]> {
  if (!(await resolvesToCommit(repoPath, ref))) return [];
  const { term, filters } = parseBlobQuery(query);
  if (term === '' && filters.length === 0) return [];
  const content = await byContent(repoPath, ref, term);
  // An empty term with filters lists files by name only; a term also finds files by their path.
  const names = await byName(repoPath, ref, term, new Set(content.keys()));
  const all = [...content.values(), ...names].filter((found) => filters.every((filter) => filter.matches(found.path)));
  return all.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).slice(0, MAX_FILES_PER_REPOSITORY);
}
