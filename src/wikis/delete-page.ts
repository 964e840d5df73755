// WikiPages::DestroyService: the page's file removed in one commit by the acting user (its history
// stays in the repository).
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { commitToWiki, whileWikiWritable, writableWiki, type WikiOwner } from '../repositories/api.js';
import type { WikiPage } from './finder.js';
import { commitMessage } from './page-rules.js';
import { publishPageChange } from './publish-change.js';

export async function deletePage(deps: Deps, user: AuthUser, owner: WikiOwner, page: WikiPage, message?: string): Promise<void> {
  const repoPath = await writableWiki(deps, owner);
  const said = commitMessage(user, 'deleted', page.slug, message);
  const commit = await whileWikiWritable(deps, owner, () => commitToWiki(deps, repoPath, user, new Map([[page.path, null]]), said));
  // The page is read where it still was: the commit the deletion followed.
  await publishPageChange(deps, owner, user.id, { slug: page.slug, path: page.path, action: 'delete', commit: commit.id, readAt: commit.parent ?? page.version, message: said }, page);
}
