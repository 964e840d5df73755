// A project wiki page's activity event (GitLab's WikiPages::EventCreateService): `created`, `updated`
// or `destroyed` with target_type WikiPage::Meta, the target being the page's meta record — one id per
// page, found by its slug and moved along by a rename (the API's and the pages'; a push's rename is a
// removal and an addition, as its hooks tell it). Recorded in the transaction that publishes the
// change (publish-change.ts). Group wikis record none: Kiln's events belong to projects.
import type { Deps } from '../platform/deps.js';
import type { Executor } from '../platform/db/database.js';
import type { WikiPageChange } from '../platform/domain-events.js';
import { recordEvent } from '../platform/events/record-event.js';

const ACTIONS = { create: 'created', update: 'updated', delete: 'destroyed' } as const;

/** The meta record of the page, made or moved to `change.slug` (its title and format as the change left them). */
async function pageMeta(deps: Deps, trx: Executor, projectId: number, change: WikiPageChange, page: { title: string; format: string }): Promise<number> {
  const now = deps.clock.now();
  const described = { title: page.title, format: page.format, removed: change.action === 'delete' ? 1 : 0, updated_at: now };
  // A rename moves the old slug's record along, unless the new slug has one of its own already.
  if (change.previousSlug) {
    const moved = await trx.updateTable('wiki_page_meta').set({ slug: change.slug, ...described })
      .where('project_id', '=', projectId).where('slug', '=', change.previousSlug)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('wiki_page_meta as taken').select('taken.id').where('taken.project_id', '=', projectId).where('taken.slug', '=', change.slug))))
      .returning('id').executeTakeFirst();
    if (moved) return Number(moved.id);
  }
  const kept = await trx.insertInto('wiki_page_meta')
    .values({ project_id: projectId, slug: change.slug, created_at: now, ...described })
    .onConflict((oc) => oc.columns(['project_id', 'slug']).doUpdateSet(described))
    .returning('id').executeTakeFirstOrThrow();
  return Number(kept.id);
}

export async function recordPageEvent(deps: Deps, trx: Executor, projectId: number, actorId: number, change: WikiPageChange, page: { title: string; format: string }): Promise<void> {
  const metaId = await pageMeta(deps, trx, projectId, change, page);
  await recordEvent(trx, deps.clock, { projectId, authorId: actorId, action: ACTIONS[change.action], target: { type: 'WikiPage::Meta', id: metaId, title: page.title } });
}
