// The filters of GitLab's project listings (GET /projects, GET /projects/:id/forks): parameters and
// what the finder takes of them.
import { p } from '../platform/http/params.js';
import type { ProjectFilters } from './finders.js';

const VISIBILITIES = ['private', 'internal', 'public'] as const;
const ORDER_BY = ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at'] as const;

export const PROJECT_LIST_PARAMS = {
  search: p.string.optional(),
  membership: p.boolean.optional(),
  owned: p.boolean.optional(),
  starred: p.boolean.optional(),
  visibility: p.string.optional({ values: VISIBILITIES }),
  order_by: p.string.optional({ values: ORDER_BY }),
  sort: p.string.optional({ values: ['asc', 'desc'] }),
  simple: p.boolean.optional(),
  topic: p.strings.optional({ description: 'Projects listing every one of these topics (comma-separated names)' }),
  topic_id: p.integer.optional({ description: 'Projects listing the topic of this id' }),
};

export function projectFilters(params: { search?: string; membership?: boolean; owned?: boolean; starred?: boolean; visibility?: string; order_by?: string; sort?: string; topic?: string[]; topic_id?: number }): ProjectFilters {
  return {
    search: params.search,
    membership: params.membership,
    owned: params.owned,
    starred: params.starred,
    visibility: params.visibility,
    orderBy: params.order_by as ProjectFilters['orderBy'],
    sort: params.sort as ProjectFilters['sort'],
    topics: params.topic?.map((name) => name.trim()).filter((name) => name !== ''),
    topicId: params.topic_id,
  };
}
