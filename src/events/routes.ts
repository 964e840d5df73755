// GET /events, /users/:id/events, /projects/:id/events (specification, Activity events; gitlab-rest.md §5).
// All three require a user (DECISIONS.md); the first two also admit `read_user` tokens.
import { JsonText } from '../platform/http/json-text.js';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute, type RouteContext } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { pageOf, setPageHeaders } from '../platform/http/pagination.js';
import { countEvents } from './count-cache.js';
import { findProject, findUser } from '../accounts/lookup.js';
import { EVENT_ACTIONS, TARGET_TYPE_FILTERS } from './vocabulary.js';
import { listEvents, notesForEvents, type EventFilters, type EventSubject } from './finder.js';
import { eventEntity } from './entities.js';
import type { Viewer } from './visibility.js';
import { accessScope } from '../accounts/access.js';

const filterParams = {
  action: p.string.optional({ values: EVENT_ACTIONS }),
  target_type: p.string.optional({ values: TARGET_TYPE_FILTERS }),
  before: p.date.optional(),
  after: p.date.optional(),
  sort: p.string.optional({ values: ['asc', 'desc'] }),
};

type FilterParams = RouteContext<typeof filterParams>['params'];

function filtersOf(params: FilterParams): EventFilters {
  return {
    action: params.action as EventFilters['action'],
    targetType: params.target_type as EventFilters['targetType'],
    before: params.before,
    after: params.after,
    sort: params.sort as EventFilters['sort'],
  };
}

export function eventsRoutes(app: FastifyInstance, deps: Deps): void {
  const base = deps.config.baseUrl;

  async function list(ctx: RouteContext<typeof filterParams>, subject: EventSubject, projectEvent = false) {
    const viewer: Viewer = { id: ctx.actor.user.id, admin: ctx.actor.user.admin };
    const page = pageOf(ctx.input);
    const filters = filtersOf(ctx.params);
    // A page is a pure function of these and the data: read-cached until the database changes
    // (platform/db/reads.ts), as clients poll the same pages.
    const key = JSON.stringify(['events', ...accessScope(ctx.actor.user, deps.clock.now()), subject, filters, projectEvent, page.offset, page.perPage]);
    const { listing, body } = await deps.reads.memo(key, async () => {
      const listing = await listEvents(deps, viewer, subject, filters);
      const rows = await listing.page(page.offset, page.perPage);
      const notes = await notesForEvents(deps, rows);
      return { listing, body: new JsonText(rows.map((row) => eventEntity(base, row, notes, { projectEvent }))) };
    });
    // X-Total has its own cache with its own expiry (count-cache.ts).
    const count = await countEvents(deps, listing.countKey, listing.matching);
    setPageHeaders(base, ctx.request, ctx.reply, page, count);
    return body;
  }

  apiRoute(app, deps, {
    method: 'GET', url: '/events', summary: "The authenticated user's events; scope=all adds every event of their projects", tags: ['events'],
    paginated: true, extraScopes: ['read_user'],
    params: { ...filterParams, scope: p.string.optional() },
    handler: async (ctx) => {
      return list(ctx, ctx.params.scope === 'all' ? { memberOf: true } : { author: ctx.actor.user.id });
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/users/:id/events', summary: 'Events of a user (id or username), as far as the caller may see them', tags: ['events'],
    paginated: true, extraScopes: ['read_user'],
    params: { id: p.string.required(), ...filterParams },
    handler: async (ctx) => {
      const user = await findUser(deps, ctx.params.id);
      // A private profile shows no activity to others: an empty list, not 404 (GitLab's can?(:read_user_profile)).
      const hidden = user.private_profile === 1 && !ctx.actor.user.admin && ctx.actor.user.id !== Number(user.id);
      return list(ctx, hidden ? { nobody: true } : { author: Number(user.id) });
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/events', summary: "A project's visible events", tags: ['events'], paginated: true,
    params: { id: p.string.required(), ...filterParams },
    handler: async (ctx) => {
      const { project, level } = await findProject(deps, ctx.actor, ctx.params.id);
      return list(ctx, { project: Number(project.id), level, private: project.visibility === 'private' }, true);
    },
  });
}
