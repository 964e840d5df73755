// A page's change told to the rest of Kiln (the Wiki Page Hook, platform/domain-events.ts) once its
// commit is on the branch. The commit is git's, not the database's: the event is published in a
// transaction of its own right after, so a crash between the two loses the hook, never the page.
// A project's wiki tells a project event; a group's wiki, which belongs to no project, a group event
// (its group hooks and its ancestors').
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import type { WikiPageChange } from '../platform/domain-events.js';
import type { WikiOwner } from '../repositories/api.js';

export async function publishPageChange(deps: Deps, owner: WikiOwner, actorId: number, change: WikiPageChange): Promise<void> {
  await inTransaction(deps.db, (trx) => (owner.type === 'project_wiki'
    ? deps.domainEvents.publish(trx, { kind: 'wiki_page.changed', projectId: owner.id, actorId, ...change })
    : deps.domainEvents.publish(trx, { kind: 'group_wiki_page.changed', groupId: owner.id, actorId, ...change })));
}
