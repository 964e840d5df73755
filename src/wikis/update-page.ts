// WikiPages::UpdateService: a page's content, title (a rename, keeping its directory unless the title
// names one) or format (a new extension), in one commit by the acting user. The page must still be the
// one the caller read; a rename onto another page's slug is a duplicate.
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { StatusError, ValidationError } from '../platform/errors.js';
import { commitToWiki, whileWikiWritable, writableWiki, type WikiOwner } from '../repositories/api.js';
import { fileOfPage, slugOfRenamed, type WikiFormat } from './page-names.js';
import { findPageRef, loadPage, wikiSnapshot, type WikiPage } from './finder.js';
import { checkContent, commitMessage } from './page-rules.js';
import { DUPLICATE_PAGE } from './create-page.js';
import { publishPageChange } from './publish-change.js';

export interface PageChanges {
  title?: string;
  content?: string;
  format?: WikiFormat;
  message?: string;
}

export async function updatePage(deps: Deps, user: AuthUser, owner: WikiOwner, page: WikiPage, changes: PageChanges): Promise<WikiPage> {
  let slug = page.slug;
  if (changes.title !== undefined && changes.title !== page.title) {
    const renamed = slugOfRenamed(page.slug, changes.title);
    if (!renamed.ok) throw new ValidationError({ [renamed.field]: [renamed.message] });
    slug = renamed.slug;
  }
  const content = changes.content ?? page.content;
  checkContent(content);
  const repoPath = await writableWiki(deps, owner);
  const snapshot = await wikiSnapshot(deps, owner);
  if (slug !== page.slug && findPageRef(snapshot, slug)) throw new StatusError(400, DUPLICATE_PAGE);
  const path = fileOfPage(slug, changes.format ?? page.format);
  const files = new Map<string, Buffer | null>();
  if (path !== page.path) files.set(page.path, null);
  files.set(path, Buffer.from(content, 'utf8'));
  const message = commitMessage(user, 'updated', slug, changes.message);
  const commit = await whileWikiWritable(deps, owner, () => commitToWiki(deps, repoPath, user, files, message));
  // The page as this commit left it: what the event is titled by, and what the caller gets back.
  const after = (await wikiSnapshot(deps, owner, commit.id))!;
  const updated = await loadPage(after, findPageRef(after, slug)!);
  await publishPageChange(deps, owner, user.id, { slug, path, action: 'update', commit: commit.id, readAt: commit.id, message, ...(slug !== page.slug ? { previousSlug: page.slug } : {}) }, updated);
  return updated;
}
