// A wiki page read at one commit, for what describes a change after it happened (the Wiki Page Hook):
// commits never change, so what is read is the page as the change left it.
import type { Deps } from '../platform/deps.js';
import { readableWiki, wikiCommit, wikiFiles, wikiHead, type WikiOwner } from '../repositories/api.js';
import { loadPage, pagesOf } from './finder.js';
import type { WikiFormat } from './page-names.js';

export interface WikiPageAt {
  slug: string;
  title: string;
  format: WikiFormat;
  content: string;
}

export async function wikiPageAt(deps: Deps, owner: number | WikiOwner, commit: string, path: string): Promise<WikiPageAt | null> {
  const repoPath = await readableWiki(deps, owner);
  const found = repoPath ? await wikiCommit(repoPath, commit) : null;
  if (!repoPath || !found) return null;
  const snapshot = { repoPath, commit: found.id, files: await wikiFiles(repoPath, found.id) };
  const ref = pagesOf(snapshot).find((page) => page.path === path);
  if (!ref) return null;
  const page = await loadPage(snapshot, ref);
  return { slug: page.slug, title: page.title, format: page.format, content: page.content };
}

/** The first page of the wiki's HEAD and that commit, or null for a wiki without pages. */
export async function newestWikiPage(deps: Deps, owner: number | WikiOwner): Promise<{ slug: string; path: string; commit: string } | null> {
  const repoPath = await readableWiki(deps, owner);
  const commit = repoPath ? (await wikiHead(repoPath)).commit : null;
  if (!repoPath || !commit) return null;
  const [first] = pagesOf({ repoPath, commit, files: await wikiFiles(repoPath, commit) });
  return first ? { slug: first.slug, path: first.path, commit } : null;
}
