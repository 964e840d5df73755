// Pages changed by a git push to a wiki (GitLab's Git::WikiPushService): the files of the HEAD
// branch's change from `before` to `after` that are pages, each told as the API's changes are
// (publish-change.ts: the Wiki Page Hook), at most MAX_CHANGES of them as GitLab. A page added is
// `create`, removed `delete` (read at `before`, where it still was), anything else `update`; a
// rename is a removal and an addition (renames are not followed). The message is the pushed commit's.
import type { Deps } from '../platform/deps.js';
import { EMPTY_TREE, gitBytes, readableWiki, wikiCommit, type WikiOwner } from '../repositories/api.js';
import { pageOfFile } from './page-names.js';
import { publishPageChange } from './publish-change.js';

/** GitLab's Git::WikiPushService::MAX_CHANGES. */
export const MAX_CHANGES = 100;

const ACTIONS: Record<string, 'create' | 'update' | 'delete'> = { A: 'create', D: 'delete' };

export async function publishPushedPages(deps: Deps, owner: WikiOwner, actorId: number, before: string | null, after: string): Promise<void> {
  const repoPath = await readableWiki(deps, owner);
  const commit = repoPath ? await wikiCommit(repoPath, after) : null;
  if (!repoPath || !commit) return;
  // `-z`: status and path alternate, NUL-separated, so no path is quoted or split.
  const fields = (await gitBytes(repoPath, ['diff', '--name-status', '--no-renames', '-z', before ?? EMPTY_TREE, after])).toString('utf8').split('\0');
  let published = 0;
  for (let at = 0; at + 1 < fields.length && published < MAX_CHANGES; at += 2) {
    const [status, path] = [fields[at], fields[at + 1]];
    const page = pageOfFile(path);
    if (!page) continue;
    const action = ACTIONS[status] ?? 'update';
    const readAt = action === 'delete' ? before : after;
    if (!readAt) continue;
    await publishPageChange(deps, owner, actorId, { slug: page.slug, path, action, commit: after, readAt, message: commit.message.trim() });
    published += 1;
  }
}
