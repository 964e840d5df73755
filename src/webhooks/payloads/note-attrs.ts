// A note's object_attributes in a Note Hook (GitLab's Note#hook_attrs with `description`, `url` and
// `action` merged by Gitlab::DataBuilder::Note), for the noteables whose notes have no diff position.
import type { Selectable } from 'kysely';
import type { NotesTable } from '../../platform/db/tables/issues.js';
import { hookTime } from './common.js';

export function plainNoteAttrs(note: Selectable<NotesTable>, noteableType: string, url: string) {
  return {
    attachment: null,
    author_id: Number(note.author_id),
    change_position: null,
    commit_id: null,
    created_at: hookTime(note.created_at),
    discussion_id: note.discussion_id,
    id: Number(note.id),
    line_code: null,
    note: note.body,
    noteable_id: Number(note.noteable_id),
    noteable_type: noteableType,
    original_position: null,
    position: null,
    project_id: Number(note.project_id),
    resolved_at: null,
    resolved_by_id: null,
    resolved_by_push: null,
    st_diff: null,
    system: Number(note.system) === 1,
    type: note.type ?? null,
    updated_at: hookTime(note.updated_at),
    updated_by_id: null,
    description: note.body,
    url,
    action: 'create',
  };
}
