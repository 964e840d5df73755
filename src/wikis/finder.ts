// Reading a project's or a group's wiki: its pages at the HEAD branch (or at a version), one page by slug, a page's
// history. A wiki nobody wrote to has no repository and no pages.
import type { Deps } from '../platform/deps.js';
import { readableWiki, wikiBlob, wikiCommit, wikiFiles, wikiHead, wikiHistory, type CommitObject, type WikiFile, type WikiOwner } from '../repositories/api.js';
import { fileOfPage, pageOfFile, titleOfSlug, type WikiFormat } from './page-names.js';
import { splitFrontMatter } from './front-matter.js';

export interface WikiPageRef {
  slug: string;
  format: WikiFormat;
  /** The file in the repository. */
  path: string;
  blob: string;
}

export interface WikiPage extends WikiPageRef {
  title: string;
  /** The file's text as stored, front matter included. */
  content: string;
  frontMatter: Record<string, unknown>;
  /** The commit the page was read at. */
  version: string;
}

export interface WikiSnapshot {
  repoPath: string;
  commit: string;
  files: WikiFile[];
}

/** The wiki at its HEAD (or at `version`), or null when it has no commit there. */
export async function wikiSnapshot(deps: Deps, owner: WikiOwner, version?: string): Promise<WikiSnapshot | null> {
  const repoPath = await readableWiki(deps, owner);
  if (!repoPath) return null;
  const commit = version === undefined ? (await wikiHead(repoPath)).commit : ((await wikiCommit(repoPath, version))?.id ?? null);
  if (!commit) return null;
  return { repoPath, commit, files: await wikiFiles(repoPath, commit) };
}

/** The pages of a snapshot, by slug (the first file of a slug wins, as Gitaly lists them). */
export function pagesOf(snapshot: WikiSnapshot | null): WikiPageRef[] {
  const pages = new Map<string, WikiPageRef>();
  for (const file of snapshot?.files ?? []) {
    const page = pageOfFile(file.path);
    if (page && !pages.has(page.slug)) pages.set(page.slug, { ...page, path: file.path, blob: file.id });
  }
  return [...pages.values()].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
}

export function findPageRef(snapshot: WikiSnapshot | null, slug: string): WikiPageRef | null {
  return pagesOf(snapshot).find((page) => page.slug === slug) ?? null;
}

export async function loadPage(snapshot: WikiSnapshot, ref: WikiPageRef): Promise<WikiPage> {
  const content = (await wikiBlob(snapshot.repoPath, ref.blob)).toString('utf8');
  const { data } = splitFrontMatter(content);
  const title = typeof data.title === 'string' && data.title.trim() !== '' ? data.title : titleOfSlug(ref.slug);
  return { ...ref, title, content, frontMatter: data, version: snapshot.commit };
}

/** A file of the wiki that is no page (an attachment), with its bytes. */
export async function findAttachment(snapshot: WikiSnapshot | null, path: string): Promise<{ path: string; data: Buffer } | null> {
  const file = snapshot?.files.find((candidate) => candidate.path === path);
  if (!snapshot || !file) return null;
  return { path: file.path, data: await wikiBlob(snapshot.repoPath, file.id) };
}

export async function pageHistory(snapshot: WikiSnapshot, ref: WikiPageRef, limit = 100): Promise<CommitObject[]> {
  return wikiHistory(snapshot.repoPath, snapshot.commit, ref.path, limit);
}

export { fileOfPage };
