// A page's change told to the rest of Kiln (the Wiki Page Hook, platform/domain-events.ts) once its
// commit is on the branch. The commit is git's, not the database's: the event is published in a
// transaction of its own right after, so a crash between the two loses the hook, never the page.
import type { Deps } from '../platform/deps.js';
import { inTransaction } from '../platform/db/database.js';
import type { DomainEventTypes } from '../platform/domain-events.js';

export async function publishPageChange(deps: Deps, projectId: number, actorId: number, change: DomainEventTypes['wiki_page.changed']): Promise<void> {
  await inTransaction(deps.db, (trx) => deps.domainEvents.publish(trx, { kind: 'wiki_page.changed', projectId, actorId, ...change }));
}
