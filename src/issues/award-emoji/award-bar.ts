// Award emoji on the issue and merge request pages (GitLab's awards block): each emoji awarded with
// its count, the awarders' names as its title and the viewer's own pressed; thumbs up and down always
// offered, and a few more to add. Under a comment the block is smaller: only what was awarded, and
// the picker (thumbs up and down among its choices). Each is a plain form that toggles the viewer's award (`…/award`)
// and comes back to the page; with htmx the block is swapped in place. Readers who may not award
// see the counts only.
import { gemoji } from 'gemoji';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { canOnProject } from '../../platform/auth/policies/index.js';
import { html, type Html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { fragment, redirect, type PageOutcome } from '../../platform/web/page.js';
import { NotFoundError } from '../../platform/errors.js';
import { usersById } from '../entities.js';
import type { Executor } from '../../platform/db/database.js';
import { DOWNVOTE, UPVOTE, addAward, awardsQuery, removeAward, type Awardable, type AwardRow } from './award-emoji.js';

const GLYPHS: ReadonlyMap<string, string> = new Map(gemoji.flatMap((emoji) => emoji.names.map((name) => [name, emoji.emoji] as [string, string])));
/** Offered besides those already awarded (GitLab's frequently used ones). */
const OFFERED = [UPVOTE, DOWNVOTE];
const MORE = ['smile', 'tada', 'heart', 'rocket', 'eyes', 'confused'];

export function awardBlockId(awardable: Awardable): string {
  return `awards-${awardable.type === 'Issue' ? 'issue' : awardable.type === 'Note' ? 'note' : 'merge-request'}-${awardable.id}`;
}

/** The awards of many comments at once (a page of threads), by note id, with their awarders. */
export async function noteAwards(db: Executor, noteIds: number[]): Promise<{ byNote: Map<number, AwardRow[]>; users: Awarders }> {
  const byNote = new Map<number, AwardRow[]>();
  if (noteIds.length === 0) return { byNote, users: new Map() };
  const rows = await db.selectFrom('award_emoji').selectAll().where('awardable_type', '=', 'Note').where('awardable_id', 'in', noteIds).orderBy('id').execute();
  for (const row of rows) byNote.set(Number(row.awardable_id), [...(byNote.get(Number(row.awardable_id)) ?? []), row]);
  return { byNote, users: await usersById(db, rows.map((row) => Number(row.user_id))) };
}

type Awarders = Awaited<ReturnType<typeof usersById>>;

function names(list: string[]): string {
  return list.length <= 1 ? (list[0] ?? '') : `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`;
}

/** The block; `action` is the toggle's address (the issue's or merge request's page + `/award`). */
export async function awardBlock(context: PageContext, access: ProjectAccess, awardable: Awardable, action: string): Promise<Html> {
  const awards = await awardsQuery(context.deps.db, awardable).execute();
  return renderAwardBlock(context, access, awardable, action, awards, await usersById(context.deps.db, awards.map((award) => Number(award.user_id))));
}

/** The block from awards already read (noteAwards). */
export function renderAwardBlock(context: PageContext, access: ProjectAccess, awardable: Awardable, action: string, awards: AwardRow[], users: Awarders): Html {
  const viewer = context.user ?? null;
  const comment = awardable.type === 'Note';
  const byName = new Map<string, { userIds: number[] }>();
  if (!comment) for (const name of OFFERED) byName.set(name, { userIds: [] });
  for (const award of awards) {
    const entry = byName.get(award.name) ?? { userIds: [] };
    entry.userIds.push(Number(award.user_id));
    byName.set(award.name, entry);
  }
  const mayAward = viewer !== null && canOnProject(access, 'award_emoji');
  const id = awardBlockId(awardable);
  const button = (name: string, userIds: number[]) => {
    const mine = viewer !== null && userIds.includes(viewer.id);
    const who = names(userIds.map((userId) => (viewer && userId === viewer.id ? 'You' : (users.get(userId)?.name ?? 'someone'))));
    const label = `${name}: ${userIds.length}${mine ? ', yours' : ''}`;
    const face = html`<span aria-hidden="true">${GLYPHS.get(name) ?? `:${name}:`}</span> <span class="count">${userIds.length}</span>`;
    if (!mayAward) return html`<span class="award" title="${who}" aria-label="${label}" data-name="${name}">${face}</span>`;
    return html`<form method="post" action="${action}" hx-post="${action}" hx-target="#${id}" hx-swap="outerHTML" class="inline">${csrfField(context)}<input type="hidden" name="name" value="${name}"><button type="submit" class="award secondary small${mine ? ' selected' : ''}" aria-pressed="${mine ? 'true' : 'false'}" aria-label="${label}" title="${who}" data-name="${name}">${face}</button></form>`;
  };
  const more = (comment ? [...OFFERED, ...MORE] : MORE).filter((name) => !byName.has(name));
  const picker = mayAward && more.length
    ? html`<form method="post" action="${action}" hx-post="${action}" hx-target="#${id}" hx-swap="outerHTML" class="inline">${csrfField(context)}<label for="${id}-pick" class="visually-hidden">Add reaction</label><select id="${id}-pick" name="name">${more.map((name) => html`<option value="${name}">${GLYPHS.get(name) ?? ''} ${name}</option>`)}</select> <button type="submit" class="secondary small">React</button></form>`
    : '';
  if (comment && byName.size === 0 && !picker) return html``;
  return html`<div class="awards actions${comment ? ' note-awards' : ''}" id="${id}" role="group" aria-label="${comment ? 'Reactions to this comment' : 'Reactions'}">${[...byName].map(([name, entry]) => button(name, entry.userIds))}${picker}</div>`;
}

/** Where a comment's reactions are toggled: under the page of the issue or merge request it is on. */
function noteAwardAction(self: string, noteId: number): string {
  return `${self}/notes/${noteId}/award`;
}

/**
 * The reactions block under one comment of a page of comments (`awards` read at once by noteAwards);
 * `self` is the page of the issue or merge request. None under system notes.
 */
export function noteAwardBlock(context: PageContext, access: ProjectAccess, self: string, note: { id: number | string; system: number | boolean }, awards: Awaited<ReturnType<typeof noteAwards>>): Html | '' {
  if (Number(note.system) === 1) return '';
  const id = Number(note.id);
  return renderAwardBlock(context, access, { type: 'Note', id }, noteAwardAction(self, id), awards.byNote.get(id) ?? [], awards.users);
}

/**
 * Toggle the viewer's award on one comment (`context.match.note`) of the issue or merge request
 * `noteable`, whose page is `self`: never a system note, never another noteable's comment (404).
 */
export async function toggleNoteAwardPost(context: PageContext, access: ProjectAccess, noteable: { type: 'Issue' | 'MergeRequest'; id: number }, self: string): Promise<PageOutcome> {
  const note = await context.deps.db.selectFrom('notes').select('id').where('id', '=', Number(context.match.note)).where('noteable_type', '=', noteable.type).where('noteable_id', '=', noteable.id).where('system', '=', 0).executeTakeFirst();
  if (!note) throw new NotFoundError();
  const id = Number(note.id);
  return toggleAwardPost(context, access, { type: 'Note', id }, `${self}#note_${id}`, noteAwardAction(self, id));
}

/**
 * Toggle the viewer's award of `name`: take it back if they gave it, give it otherwise. An htmx
 * request gets the block again, any other the page (`self`) with a message.
 */
export async function toggleAwardPost(context: PageContext, access: ProjectAccess, awardable: Awardable, self: string, action: string): Promise<PageOutcome> {
  const { deps, user, form } = context;
  if (!canOnProject(access, 'award_emoji')) return redirect(self, 'You may not react here.');
  const name = typeof form.name === 'string' ? form.name : '';
  const own = name ? await awardsQuery(deps.db, awardable).where('user_id', '=', user.id).where('name', '=', name).executeTakeFirst() : undefined;
  let message: string;
  try {
    if (own) await removeAward(deps, user, own);
    else await addAward(deps, user.id, awardable, name);
    message = own ? 'Reaction removed.' : 'Reaction added.';
  } catch (error) {
    // Not an emoji name, or a second click that raced the first: nothing changes.
    if (!(error instanceof NotFoundError)) throw error;
    message = 'Nothing changed.';
  }
  if (context.request.headers['hx-request'] === 'true') return fragment(await awardBlock(context, access, awardable, action));
  return redirect(self, message);
}
