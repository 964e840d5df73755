// A page's change told to the rest of Kiln (the Wiki Page Hook, platform/domain-events.ts) once its
// commit is on the branch. The commit is git's, not the database's: the event is published in a
// transaction of its own right after, so a crash between the two loses the hook, never the page.
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import type { DomainEventTypes } from '../platform/domain-events.js';
import type { WikiOwner } from '../repositories/api.js';

export async function publishPageChange(deps: Deps, owner: WikiOwner, actorId: number, change: DomainEventTypes['wiki_page.changed']): Promise<void> {
  // A group's wiki belongs to no project: project events cannot name it.
  if (owner.type !== 'project_wiki') return;
  await inTransaction(deps.db, (trx) => deps.domainEvents.publish(trx, { kind: 'wiki_page.changed', projectId: owner.id, actorId, ...change }));
}
