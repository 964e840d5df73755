// GitLab's draft notes API (lib/api/draft_notes.rb): a signed-in caller's own drafts on a merge request
// they read; writing and publishing them needs create_note on it (a locked discussion: members only).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../platform/deps.js';
import { apiRoute } from '../../../platform/http/route.js';
import { p } from '../../../platform/http/params.js';
import { BadRequestError, ForbiddenError } from '../../../platform/errors.js';
import type { ProjectAccess } from '../../../platform/auth/subjects.js';
import { canCommentOnMergeRequest } from '../../../platform/auth/policies/index.js';
import { mergeRequestNoteable, type MergeRequestNoteable } from '../merge-request-noteable-type.js';
import { findReadableMergeRequest } from '../merge-request-noteable.js';
import { nestedParam } from '../position.js';
import { createDraft, draftNoteEntity, draftsOf, findDraft, updateDraft } from './draft-notes.js';
import { publishDrafts } from './publish-draft-notes.js';

const TAGS = ['draft_notes'];
const BASE = '/projects/:id/merge_requests/:merge_request_iid/draft_notes';
const ids = { id: p.string.required(), merge_request_iid: p.integer.required() };
const draftIds = { ...ids, draft_note_id: p.integer.required() };

async function readable(deps: Deps, access: ProjectAccess, iid: number): Promise<MergeRequestNoteable> {
  return mergeRequestNoteable(await findReadableMergeRequest(deps, access, iid));
}

/** The merge request the caller may comment on (403 otherwise). */
async function commentable(deps: Deps, access: ProjectAccess, iid: number): Promise<MergeRequestNoteable> {
  const mr = await readable(deps, access, iid);
  if (!canCommentOnMergeRequest(access, mr.mr)) throw new ForbiddenError();
  return mr;
}

/** GitLab's `commit_id` of `undefined` (sent by its own frontend) means none. */
function commitIdOf(value: string | undefined): string | null {
  return value && value !== 'undefined' ? value : null;
}

export function draftNoteRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'GET', url: BASE, summary: "The caller's draft notes on a merge request", tags: TAGS,
    ability: { project: 'read_merge_request' }, params: ids,
    handler: async ({ params, actor, project }) => {
      const mr = await readable(deps, await project(), params.merge_request_iid);
      return (await draftsOf(deps, mr, actor.user.id)).map(draftNoteEntity);
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: `${BASE}/:draft_note_id`, summary: 'One of the caller\'s draft notes', tags: TAGS,
    ability: { project: 'read_merge_request' }, params: draftIds,
    handler: async ({ params, actor, project }) => {
      const mr = await readable(deps, await project(), params.merge_request_iid);
      return draftNoteEntity(await findDraft(deps, mr, actor.user.id, params.draft_note_id));
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: BASE, summary: 'Write a draft note (a comment of a review not yet submitted)', tags: TAGS, status: 201,
    ability: { project: 'create_note' },
    params: { ...ids, note: p.string.required(), in_reply_to_discussion_id: p.string.optional(), commit_id: p.string.optional(), resolve_discussion: p.boolean.optional(), position: p.json.optional() },
    handler: async ({ params, input, actor, project }) => {
      const access = await project();
      const mr = await commentable(deps, access, params.merge_request_iid);
      const draft = await createDraft(deps, access, actor.user.id, mr, {
        note: params.note,
        position: nestedParam(input, 'position'),
        commitId: commitIdOf(params.commit_id),
        inReplyTo: params.in_reply_to_discussion_id || null,
        resolveDiscussion: params.resolve_discussion ?? false,
      });
      return draftNoteEntity(draft);
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: `${BASE}/:draft_note_id`, summary: 'Change a draft note\'s text (and position)', tags: TAGS,
    ability: { project: 'read_merge_request' }, params: { ...draftIds, note: p.string.optional(), position: p.json.optional() },
    handler: async ({ params, input, actor, project }) => {
      if (!params.note?.trim()) throw new BadRequestError('Missing params to modify');
      const mr = await readable(deps, await project(), params.merge_request_iid);
      const draft = await findDraft(deps, mr, actor.user.id, params.draft_note_id);
      return draftNoteEntity(await updateDraft(deps, mr, draft, params.note, nestedParam(input, 'position')));
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: `${BASE}/:draft_note_id`, summary: 'Delete a draft note', tags: TAGS,
    ability: { project: 'read_merge_request' }, params: draftIds,
    handler: async ({ params, actor, project }) => {
      const mr = await readable(deps, await project(), params.merge_request_iid);
      const draft = await findDraft(deps, mr, actor.user.id, params.draft_note_id);
      await deps.db.deleteFrom('draft_notes').where('id', '=', Number(draft.id)).execute();
      return undefined;
    },
  });

  apiRoute(app, deps, {
    method: 'PUT', url: `${BASE}/:draft_note_id/publish`, summary: 'Publish one draft note', tags: TAGS,
    ability: { project: 'create_note' }, params: draftIds,
    handler: async ({ params, actor, project }) => {
      const access = await project();
      const mr = await commentable(deps, access, params.merge_request_iid);
      const draft = await findDraft(deps, mr, actor.user.id, params.draft_note_id);
      await publishDrafts(deps, access, actor.user.id, mr, [draft], false);
      return undefined;
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: `${BASE}/bulk_publish`, summary: 'Submit the review: publish all the caller\'s draft notes', tags: TAGS,
    ability: { project: 'create_note' }, params: ids,
    handler: async ({ params, actor, project }) => {
      const access = await project();
      const mr = await commentable(deps, access, params.merge_request_iid);
      await publishDrafts(deps, access, actor.user.id, mr, await draftsOf(deps, mr, actor.user.id), true);
      return undefined;
    },
  });
}
