// GET /events, /users/:id/events, /projects/:id/events (specification, Activity events; GitLab's REST API documentation).
// The first two also admit `read_user` tokens. Anonymous callers read the events of public projects
// (a user's, or one project's), as in GitLab; /events is the caller's own and needs a user.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute, type RouteContext } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { pageOf, setPageHeaders } from '../platform/http/pagination.js';
import { countEvents } from './count-cache.js';
import { findUser } from '../accounts/api.js';
import { EVENT_ACTIONS } from '../platform/events/vocabulary.js';
import { TARGET_TYPE_FILTERS } from './vocabulary.js';
import { listEvents, notesForEvents, wikiPagesForEvents, type EventFilters, type EventSubject } from './finder.js';
import { eventEntity } from './entities.js';
import { eventAccess, type Viewer } from './visibility.js';

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
    const viewer: Viewer = ctx.principal?.user ?? null;
    const page = pageOf(ctx.input);
    const filters = filtersOf(ctx.params);
    const listing = await listEvents(deps, viewer, subject, filters);
    const rows = await listing.page(page.offset, page.perPage);
    const [notes, wikiPages] = await Promise.all([notesForEvents(deps, rows), wikiPagesForEvents(deps, rows)]);
    // X-Total has its own cache with its own expiry (count-cache.ts).
    const count = await countEvents(deps, listing.countKey, listing.matching);
    setPageHeaders(base, ctx.request, ctx.reply, page, count);
    return rows.map((row) => eventEntity(base, row, notes, { projectEvent, wikiPages }));
  }

  apiRoute(app, deps, {
    method: 'GET', url: '/events', summary: "The authenticated user's events; scope=all adds every event of their projects", tags: ['events'],
    paginated: true, extraScopes: ['read_user'], ability: { instance: 'log_in' },
    params: { ...filterParams, scope: p.string.optional() },
    handler: async (ctx) => {
      return list(ctx, ctx.params.scope === 'all' ? { memberOf: true } : { author: ctx.actor.user.id });
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/users/:id/events', summary: 'Events of a user (id or username), as far as the caller may see them', tags: ['events'],
    paginated: true, extraScopes: ['read_user'], ability: { instance: 'read_instance' }, auth: 'optional',
    params: { id: p.string.required(), ...filterParams },
    handler: async (ctx) => {
      const user = await findUser(deps, ctx.params.id);
      const viewer = ctx.principal?.user ?? null;
      // A private profile shows no activity to others: an empty list, not 404 (GitLab's can?(:read_user_profile)).
      const hidden = user.private_profile === 1 && !viewer?.admin && viewer?.id !== Number(user.id);
      return list(ctx, hidden ? { nobody: true } : { author: Number(user.id) });
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/events', summary: "A project's visible events", tags: ['events'], paginated: true,
    ability: { project: 'read_events' }, auth: 'optional',
    params: { id: p.string.required(), ...filterParams },
    handler: async (ctx) => {
      const access = await ctx.project();
      return list(ctx, { project: Number(access.project.id), access: eventAccess(access) }, true);
    },
  });
}
