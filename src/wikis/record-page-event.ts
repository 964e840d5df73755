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
  const removed = change.action === 'delete' ? 1 : 0;
  const find = (slug: string) => trx.selectFrom('wiki_page_meta').select('id').where('project_id', '=', projectId).where('slug', '=', slug).executeTakeFirst();
  const found = (await find(change.slug)) ?? (change.previousSlug ? await find(change.previousSlug) : undefined);
  if (found) {
    await trx.updateTable('wiki_page_meta').set({ slug: change.slug, title: page.title, format: page.format, removed, updated_at: now }).where('id', '=', found.id).execute();
    return Number(found.id);
  }
  await trx.insertInto('wiki_page_meta')
    .values({ project_id: projectId, slug: change.slug, title: page.title, format: page.format, removed, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['project_id', 'slug']).doNothing())
    .execute();
  return Number((await find(change.slug))!.id);
}

export async function recordPageEvent(deps: Deps, trx: Executor, projectId: number, actorId: number, change: WikiPageChange, page: { title: string; format: string }): Promise<void> {
  const metaId = await pageMeta(deps, trx, projectId, change, page);
  await recordEvent(trx, deps.clock, { projectId, authorId: actorId, action: ACTIONS[change.action], target: { type: 'WikiPage::Meta', id: metaId, title: page.title } });
}
