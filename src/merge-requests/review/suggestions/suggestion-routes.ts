// GitLab's suggestions API (lib/api/suggestions.rb): `PUT /suggestions/:id/apply` and
// `PUT /suggestions/batch_apply` (`ids`, `commit_message`), answered with the applied suggestions.
// Who may apply is whoever may push to the merge request's source branch (SuggestionPolicy); a
// suggestion the caller cannot read is not found.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../platform/deps.js';
import { apiRoute } from '../../../platform/http/route.js';
import { p } from '../../../platform/http/params.js';
import { ForbiddenError, NotFoundError, StatusError } from '../../../platform/errors.js';
import type { Principal } from '../../../platform/auth/principal.js';
import { canOnProject } from '../../../platform/auth/policies/index.js';
import { findProject } from '../../../accounts/api.js';
import { mayPushToBranch } from '../../../repositories/api.js';
import { findMergeRequestById, fullProject, latestDiffOf } from '../../finder.js';
import { readPosition } from '../position.js';
import { isActive } from '../diff-threads.js';
import { suggestionEntity } from './suggestion-entity.js';
import { applySuggestions, type SuggestionAt } from './apply-suggestions.js';

const TAGS = ['suggestions'];
const NOT_FOUND_ONE = 'Suggestion is not applicable as the suggestion was not found.';
const NOT_FOUND_MANY = 'Suggestions are not applicable as one or more suggestions were not found.';

/** The suggestions with their notes and merge requests, in the order asked; null when one is missing or unreadable. */
async function findSuggestions(deps: Deps, principal: Principal, ids: number[]): Promise<SuggestionAt[] | null> {
  const unique = [...new Set(ids)];
  if (unique.length !== ids.length || ids.length === 0 || ids.length > 100) return null;
  const rows = await deps.db.selectFrom('suggestions').selectAll().where('id', 'in', unique).execute();
  if (rows.length !== ids.length) return null;
  const found: SuggestionAt[] = [];
  for (const id of ids) {
    const suggestion = rows.find((row) => Number(row.id) === id)!;
    const note = await deps.db.selectFrom('notes').selectAll().where('id', '=', Number(suggestion.note_id)).where('noteable_type', '=', 'MergeRequest').executeTakeFirst();
    const mr = note ? await findMergeRequestById(deps.db, Number(note.noteable_id)) : undefined;
    if (!note || !mr) return null;
    const access = await findProject(deps, principal, Number(mr.target_project_id)).catch(() => null);
    if (!access || !canOnProject(access, 'read_merge_request')) return null;
    found.push({ suggestion, note, mr });
  }
  return found;
}

async function applied(deps: Deps, ids: number[]) {
  const rows = await deps.db.selectFrom('suggestions').selectAll().where('id', 'in', ids).execute();
  const entities = [];
  for (const id of ids) {
    const row = rows.find((candidate) => Number(candidate.id) === id)!;
    const note = (await deps.db.selectFrom('notes').selectAll().where('id', '=', Number(row.note_id)).executeTakeFirst())!;
    const mr = (await findMergeRequestById(deps.db, Number(note.noteable_id)))!;
    entities.push(suggestionEntity(row, readPosition(note.position), { active: isActive(note, await latestDiffOf(deps.db, mr)), mrState: mr.state }));
  }
  return entities;
}

async function apply(deps: Deps, principal: Principal, ids: number[], message: string | undefined, notFound: string) {
  const found = await findSuggestions(deps, principal, ids);
  if (!found) throw new StatusError(404, notFound);
  const { mr } = found[0];
  const source = await fullProject(deps.db, Number(mr.source_project_id));
  if (!source) throw new NotFoundError('Project');
  const access = await findProject(deps, principal, Number(source.id)).catch(() => null);
  for (const at of found) {
    if (!access || !(await mayPushToBranch(deps, access, at.mr.source_branch))) throw new ForbiddenError();
  }
  await applySuggestions(deps, access!, source, principal.user, found, message);
  return applied(deps, ids);
}

export function suggestionRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'PUT', url: '/suggestions/:id/apply', summary: 'Apply a suggestion as a commit on the source branch', tags: TAGS,
    // The suggestion's project is found from it: its merge request must be readable, its source branch pushable.
    ability: { instance: 'read_instance' },
    params: { id: p.integer.required(), commit_message: p.string.optional() },
    handler: async ({ params, actor }) => (await apply(deps, actor, [params.id], params.commit_message, NOT_FOUND_ONE))[0],
  });

  apiRoute(app, deps, {
    method: 'PUT', url: '/suggestions/batch_apply', summary: 'Apply several suggestions as one commit', tags: TAGS,
    ability: { instance: 'read_instance' },
    params: { ids: p.integers.required(), commit_message: p.string.optional() },
    handler: async ({ params, actor }) => apply(deps, actor, params.ids, params.commit_message, NOT_FOUND_MANY),
  });
}
