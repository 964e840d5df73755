// Wire shape of an activity event (specification, Activity event; GitLab's REST API documentation), fields listed
// explicitly in GitLab's order. `title` is always null and `data` null on project events: the
// specification shows both, GitLab no longer emits them, and null is harmless to every client.
import { isoTime } from '../platform/clock.js';
import { userBasic } from '../accounts/api.js';
import type { PushData } from '../platform/events/vocabulary.js';
import { actionName } from './vocabulary.js';
import { EVENT_TARGET_TYPES } from '../platform/events/vocabulary.js';
import { isNoteEvent, type EventRow, type NoteWithAuthor, type WikiPageOfEvent } from './finder.js';

export function parsePushData(raw: string | null): PushData | null {
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as PushData;
  } catch {
    return null;
  }
}

function pushDataEntity(data: PushData) {
  return {
    commit_count: data.commit_count,
    action: data.action,
    ref_type: data.ref_type,
    commit_from: data.commit_from,
    commit_to: data.commit_to,
    ref: data.ref,
    commit_title: data.commit_title,
    ref_count: data.ref_count ?? null,
  };
}

function noteEntity(baseUrl: string, note: NoteWithAuthor) {
  return {
    id: Number(note.id),
    type: note.type ?? null,
    body: note.body,
    attachment: null,
    author: userBasic(baseUrl, { id: note.author_id, username: note.username, name: note.name, state: note.state, avatar: note.avatar }),
    created_at: isoTime(note.created_at),
    updated_at: isoTime(note.updated_at),
    system: Number(note.system) === 1,
    noteable_id: Number(note.noteable_id),
    noteable_type: note.noteable_type,
    resolvable: false,
    confidential: false,
    noteable_iid: note.noteable_iid === null || note.noteable_iid === undefined ? null : Number(note.noteable_iid),
    commands_changes: {},
  };
}

const orNull = (value: number | string | null) => (value === null ? null : Number(value));

/** GitLab's WikiPageBasic of a wiki event's page: null once the page is gone. */
function wikiPageOf(row: EventRow, pages: Map<number, WikiPageOfEvent> | undefined) {
  const page = row.target_id === null ? undefined : pages?.get(Number(row.target_id));
  return page && Number(page.removed) === 0 ? { format: page.format, slug: page.slug, title: page.title } : null;
}

export function eventEntity(baseUrl: string, row: EventRow, notes: Map<number, NoteWithAuthor>, options: { projectEvent?: boolean; wikiPages?: Map<number, WikiPageOfEvent> } = {}) {
  const pushData = row.action === 'pushed' ? parsePushData(row.push_data) : null;
  const note = isNoteEvent(row) && row.target_id !== null ? notes.get(Number(row.target_id)) : undefined;
  const author = userBasic(baseUrl, { id: row.author_id, username: row.username, name: row.name, state: row.state, avatar: row.avatar });
  return {
    id: Number(row.id),
    title: null,
    project_id: orNull(row.project_id),
    action_name: actionName({ action: row.action, target_type: row.target_type, push_data: pushData }),
    target_id: orNull(row.target_id),
    // The target's iid when it has one, else its id (GitLab's Event#target_iid).
    target_iid: row.target_iid !== null ? Number(row.target_iid) : orNull(row.target_id),
    target_type: row.target_type,
    author_id: Number(row.author_id),
    target_title: row.target_title,
    created_at: isoTime(row.created_at),
    ...(note ? { note: noteEntity(baseUrl, note) } : {}),
    author,
    ...(row.target_type === EVENT_TARGET_TYPES.wiki ? { wiki_page: wikiPageOf(row, options.wikiPages) } : {}),
    ...(pushData ? { push_data: pushDataEntity(pushData) } : {}),
    author_username: row.username,
    ...(options.projectEvent ? { data: null } : {}),
  };
}
