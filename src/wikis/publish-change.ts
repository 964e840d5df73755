// A page's change told to the rest of Kiln (the Wiki Page Hook, platform/domain-events.ts) once its
// commit is on the branch, with a project wiki's activity event (record-page-event.ts). The commit is
// git's, not the database's: both are written in a transaction of their own right after, so a crash
// between the two loses the hook and the event, never the page. A project's wiki tells a project event;
// a group's wiki, which belongs to no project, a group event (its group hooks and its ancestors').
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import type { WikiPageChange } from '../platform/domain-events.js';
import type { WikiOwner } from '../repositories/api.js';
import { wikiPageAt } from './page-at.js';
import { pageOfFile, titleOfSlug } from './page-names.js';
import { recordPageEvent } from './record-page-event.js';

/** What the event names a page by: its title (front matter first) and format. */
export interface PageNaming {
  title: string;
  format: string;
}

/** `page`: the page as the change left it (a deletion: as it was), when the caller has it read; a push reads it here. */
export async function publishPageChange(deps: Deps, owner: WikiOwner, actorId: number, change: WikiPageChange, page?: PageNaming): Promise<void> {
  if (owner.type !== 'project_wiki') {
    await inTransaction(deps.db, (trx) => deps.domainEvents.publish(trx, { kind: 'group_wiki_page.changed', groupId: owner.id, actorId, ...change }));
    return;
  }
  const naming = page ?? (await readNaming(deps, owner, change));
  await inTransaction(deps.db, async (trx) => {
    await recordPageEvent(deps, trx, owner.id, actorId, change, naming);
    await deps.domainEvents.publish(trx, { kind: 'wiki_page.changed', projectId: owner.id, actorId, ...change });
  });
}

/** The page as the change left it (a deletion: as it was), read at `change.readAt`: its front matter may title it. */
async function readNaming(deps: Deps, owner: WikiOwner, change: WikiPageChange): Promise<PageNaming> {
  const read = await wikiPageAt(deps, owner, change.readAt, change.path);
  return { title: read?.title ?? titleOfSlug(change.slug), format: read?.format ?? pageOfFile(change.path)?.format ?? 'markdown' };
}
