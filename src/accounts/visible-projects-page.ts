// GET /projects without filters in one statement (project-page-queries.ts): the page of projects the
// caller can see, as GitLab's Project entities in JSON, with the bounded count. The same projects in
// the same order as visibleProjectsQuery (finders.ts), which serves the filtered listings.
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { canOnInstance } from '../platform/auth/policies/index.js';
import { COUNT_LIMIT, type Page, type PresentedPage } from '../platform/http/pagination.js';
import { JsonText } from '../platform/http/json-text.js';
import { today } from './access.js';
import { visibleProjectsPagePostgres, visibleProjectsPageSqlite, type PageViewer } from './project-page-queries.js';

function viewerOf(user: AuthUser | null, nowMs: number): PageViewer {
  const day = today(nowMs);
  // Administrators see every project, anonymous callers the public ones; neither needs memberships.
  if (!user) return { userId: 0, visibilities: ['public', 'public'], today: day };
  if (canOnInstance(user, 'admin_all_resources')) return { userId: 0, visibilities: ['internal', 'private'], today: day };
  return { userId: user.id, visibilities: ['internal', 'internal'], today: day };
}

export async function visibleProjectsPage(deps: Deps, user: AuthUser | null, page: Page): Promise<PresentedPage> {
  const window = { perPage: page.perPage, offset: page.offset, countLimit: COUNT_LIMIT + 1 };
  const statement = (deps.dialect === 'postgres' ? visibleProjectsPagePostgres : visibleProjectsPageSqlite)(viewerOf(user, deps.clock.now()), window);
  const [row] = await deps.readCache.all<{ total: number | string; body: string | null }>(statement, { cache: true });
  const total = Number(row.total);
  return { count: total > COUNT_LIMIT ? null : total, body: JsonText.of(row.body ?? '[]') };
}
