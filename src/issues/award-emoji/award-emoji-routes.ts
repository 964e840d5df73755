// Award emoji on issues, merge requests and their comments (doc/api/emoji_reactions.md; lib/api/award_emoji.rb):
// `/projects/:id/<noteables>/:iid/award_emoji` and `…/notes/:note_id/award_emoji`, for any kind of
// noteable (noteable-kind.ts). Whoever reads the noteable reads its awards; whoever may award
// (award_emoji: Guests of the project, anyone signed in on a public one) awards.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { apiRoute } from '../../platform/http/route.js';
import { p } from '../../platform/http/params.js';
import { isoTime } from '../../platform/clock.js';
import { NotFoundError } from '../../platform/errors.js';
import { userBasic } from '../../accounts/api.js';
import { findNote } from '../discussions-finder.js';
import { usersById, type Users } from '../entities.js';
import { noteableIid, withNoteableIds } from '../note-routes.js';
import type { NoteableKind } from '../noteable-kind.js';
import type { Noteable } from '../noteable.js';
import { addAward, awardsQuery, findAward, removeAward, type Awardable, type AwardRow } from './award-emoji.js';

const TAGS = ['award_emoji'];

/** GitLab's AwardEmoji entity (`url` is a custom emoji's image; Kiln has none). */
function awardEntity(baseUrl: string, award: AwardRow, users: Users) {
  const user = users.get(Number(award.user_id));
  return {
    id: Number(award.id),
    name: award.name,
    user: user ? userBasic(baseUrl, user) : null,
    created_at: isoTime(award.created_at),
    updated_at: isoTime(award.updated_at),
    awardable_id: Number(award.awardable_id),
    awardable_type: award.awardable_type,
    url: null,
  };
}

async function present(deps: Deps, awards: AwardRow[]) {
  const users = await usersById(deps.db, awards.map((award) => Number(award.user_id)));
  return awards.map((award) => awardEntity(deps.config.baseUrl, award, users));
}

export function awardEmojiRoutes<T extends Noteable>(app: FastifyInstance, deps: Deps, kind: NoteableKind<T>): void {
  const onNoteable = { path: `/projects/:id/${kind.resource}/:${kind.iidParam}/award_emoji`, params: {}, name: kind.name };
  const onNote = { path: `/projects/:id/${kind.resource}/:${kind.iidParam}/notes/:note_id/award_emoji`, params: { note_id: p.integer.required() }, name: `a comment on ${kind.name}` };
  for (const target of [onNoteable, onNote]) {
    /** The issue, merge request or comment the caller may read; a system note takes no award. */
    const awardable = async (access: ProjectAccess, params: Record<string, unknown>, awarding = false): Promise<Awardable> => {
      const noteable = await kind.find(deps, access, noteableIid(kind, params));
      if (target === onNoteable) return { type: noteable.type as 'Issue' | 'MergeRequest', id: noteable.id };
      const note = await findNote(deps.db, noteable, Number(params.note_id));
      if (awarding && Number(note.system) === 1) throw new NotFoundError('Award Emoji Awardable cannot be awarded emoji');
      return { type: 'Note', id: Number(note.id) };
    };

    apiRoute(app, deps, {
      method: 'GET', url: target.path, summary: `List the emoji awarded to ${target.name}`, tags: TAGS, paginated: true,
      ability: { project: kind.abilities.read }, auth: 'optional',
      params: withNoteableIds(kind, target.params),
      handler: async ({ params, project, paginate }) => present(deps, await paginate(awardsQuery(deps.db, await awardable(await project(), params)))),
    });

    apiRoute(app, deps, {
      method: 'GET', url: `${target.path}/:award_id`, summary: `One emoji awarded to ${target.name}`, tags: TAGS,
      ability: { project: kind.abilities.read }, auth: 'optional',
      params: withNoteableIds(kind, { ...target.params, award_id: p.integer.required() }),
      handler: async ({ params, project }) => (await present(deps, [await findAward(deps.db, await awardable(await project(), params), params.award_id)]))[0],
    });

    apiRoute(app, deps, {
      method: 'POST', url: target.path, summary: `Award an emoji to ${target.name}`, tags: TAGS,
      ability: { project: 'award_emoji' },
      params: withNoteableIds(kind, { ...target.params, name: p.string.required() }),
      handler: async ({ params, project, actor }) => {
        const award = await addAward(deps, actor.user.id, await awardable(await project(), params, true), params.name);
        return (await present(deps, [award]))[0];
      },
    });

    apiRoute(app, deps, {
      method: 'DELETE', url: `${target.path}/:award_id`, summary: 'Take back an awarded emoji (its user, or an administrator)', tags: TAGS,
      ability: { project: kind.abilities.read },
      params: withNoteableIds(kind, { ...target.params, award_id: p.integer.required() }),
      handler: async ({ params, project, actor }) => {
        const award = await findAward(deps.db, await awardable(await project(), params), params.award_id);
        await removeAward(deps, actor.user, award);
        return undefined;
      },
    });
  }
}
