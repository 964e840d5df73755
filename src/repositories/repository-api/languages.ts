// GET /projects/:id/languages (doc/api/projects.md "Languages"): the share of the default branch's
// bytes each language takes, in percent with two decimals, largest first — GitLab's answer from
// Gitaly's linguist. Languages, their extensions and file names come from GitHub Linguist's list (the
// linguist-languages package); as Linguist counts a repository, only programming and markup languages
// count, and vendored code, documentation and dotfiles do not. An extension several languages share
// goes to the one it is the primary extension of (Linguist would look at the content).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { p } from '../../platform/http/params.js';
import { gitBytes } from '../git.js';
import { repositoryRoute } from './route-kit.js';
import { findCommit } from './object-reader.js';
import { readableRepository } from './project-repository.js';

interface Language {
  name: string;
  type: string;
  extensions?: readonly string[];
  filenames?: readonly string[];
}

const COUNTED = new Set(['programming', 'markup']);
const VENDORED = /(^|\/)(node_modules|vendor|bower_components|third[-_]?party|Godeps|deps)\/|\.min\.(js|css)$/i;
const DOCUMENTATION = /(^|\/)(docs?|Documentation|examples?)\//i;
const DOTFILE = /(^|\/)\./;

interface Indexes {
  byFilename: Map<string, Language>;
  byExtension: Map<string, Language>;
}

function indexesOf(linguist: Record<string, unknown>): Indexes {
  const byFilename = new Map<string, Language>();
  const byExtension = new Map<string, Language>();
  const languages = Object.values(linguist).filter((language): language is Language => typeof language === 'object' && language !== null && 'type' in language);
  for (const language of languages) {
    for (const name of language.filenames ?? []) if (!byFilename.has(name)) byFilename.set(name, language);
    // A primary extension wins over a secondary one, whatever the order.
    const primary = language.extensions?.[0]?.toLowerCase();
    if (primary) byExtension.set(primary, language);
  }
  for (const language of languages) for (const extension of language.extensions ?? []) if (!byExtension.has(extension.toLowerCase())) byExtension.set(extension.toLowerCase(), language);
  return { byFilename, byExtension };
}

let loading: Promise<Indexes> | null = null;

/**
 * Linguist's list, loaded on the first count rather than at start: it is one module per language, ~830
 * of the ~2,500 a start loads otherwise (docs/performance.md).
 */
function languageIndexes(): Promise<Indexes> {
  loading ??= import('linguist-languages').then((linguist) => indexesOf(linguist as Record<string, unknown>));
  return loading;
}

/** The language of a path by its file name, else its longest known extension (`.d.ts` before `.ts`). */
export async function languageOf(path: string): Promise<Language | null> {
  return languageIn(await languageIndexes(), path);
}

function languageIn(indexes: Indexes, path: string): Language | null {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const exact = indexes.byFilename.get(name);
  if (exact) return exact;
  const lower = name.toLowerCase();
  for (let dot = lower.indexOf('.', 1); dot !== -1; dot = lower.indexOf('.', dot + 1)) {
    const found = indexes.byExtension.get(lower.slice(dot));
    if (found) return found;
  }
  return null;
}

/** Bytes per counted language over `files` (path and size), as shares in percent rounded to two decimals. */
export async function languageShares(files: Iterable<{ path: string; size: number }>): Promise<Record<string, number>> {
  const indexes = await languageIndexes();
  const bytes = new Map<string, number>();
  let total = 0;
  for (const file of files) {
    if (VENDORED.test(file.path) || DOCUMENTATION.test(file.path) || DOTFILE.test(file.path)) continue;
    const language = languageIn(indexes, file.path);
    if (!language || !COUNTED.has(language.type) || file.size === 0) continue;
    bytes.set(language.name, (bytes.get(language.name) ?? 0) + file.size);
    total += file.size;
  }
  if (total === 0) return {};
  const shares = [...bytes].map(([name, size]) => [name, Math.round((size / total) * 10_000) / 100] as const).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return Object.fromEntries(shares);
}

/** The files of a commit's tree with their sizes (`git ls-tree -r -l -z`); submodules and links have none. */
async function sizedFiles(repoPath: string, commit: string): Promise<Array<{ path: string; size: number }>> {
  const output = (await gitBytes(repoPath, ['ls-tree', '-r', '-l', '-z', commit])).toString();
  const files: Array<{ path: string; size: number }> = [];
  for (const record of output.split('\0')) {
    // `<mode> blob <id> <size padded>\t<path>`
    const match = /^(\d+) blob [0-9a-f]+ +(\d+)\t(.*)$/s.exec(record);
    if (match && match[1] !== '120000') files.push({ path: match[3], size: Number(match[2]) });
  }
  return files;
}

export function languagesRoutes(app: FastifyInstance, deps: Deps): void {
  repositoryRoute(app, deps, {
    method: 'GET', url: '/projects/:id/languages', summary: "The languages of the default branch, by share of its bytes", tags: ['projects'],
    ability: { project: 'download_code' }, auth: 'optional',
    params: { id: p.string.required() },
    handler: async ({ project }) => {
      const access = await project();
      const repoPath = await readableRepository(deps, access.project);
      const head = repoPath ? await findCommit(repoPath, access.project.default_branch) : null;
      return head && repoPath ? await languageShares(await sizedFiles(repoPath, head.id)) : {};
    },
  });
}
