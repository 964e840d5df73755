// WikiPages::DestroyService: the page's file removed in one commit by the acting user (its history
// stays in the repository).
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { commitToWiki, writableWiki } from '../repositories/api.js';
import type { WikiPage } from './finder.js';
import { commitMessage } from './page-rules.js';

export async function deletePage(deps: Deps, user: AuthUser, projectId: number, page: WikiPage, message?: string): Promise<void> {
  const repoPath = await writableWiki(deps, projectId);
  await commitToWiki(deps, repoPath, user, new Map([[page.path, null]]), commitMessage(user, 'deleted', page.slug, message));
}
