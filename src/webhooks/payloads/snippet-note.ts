// Note Hook of a comment on a project snippet (Gitlab::DataBuilder::Note with Snippet#hook_attrs):
// the note, the project, and `snippet` — its attributes, its first file as `content` (empty for a binary file) and
// `file_name` (the snippet's one file in GitLab's older single-file shape), its `visibility_level`
// and page `url`.
import type { Deps } from '../../platform/deps.js';
import { shownText, snippetWebUrl } from '../../snippets/api.js';
import { hookTime, projectAttrs, projectForHook, repositoryAttrs, userAttrs, usersForHook, visibilityLevel } from './common.js';
import { plainNoteAttrs } from './note-attrs.js';

export async function snippetNoteHookData(deps: Deps, input: { noteId: number }) {
  const note = await deps.db.selectFrom('notes').selectAll().where('id', '=', input.noteId).executeTakeFirst();
  if (!note || note.noteable_type !== 'Snippet') return null;
  const snippet = await deps.db.selectFrom('snippets').selectAll().where('id', '=', Number(note.noteable_id)).executeTakeFirst();
  const project = await projectForHook(deps, Number(note.project_id));
  if (!snippet || !project) return null;
  const file = await deps.db.selectFrom('snippet_files').select(['path', 'content', 'encoding']).where('snippet_id', '=', Number(snippet.id)).orderBy('position').limit(1).executeTakeFirst();
  const users = await usersForHook(deps, [Number(note.author_id)]);
  const url = snippetWebUrl(deps.config.baseUrl, snippet, project.full_path);
  return {
    object_kind: 'note',
    event_type: 'note',
    user: userAttrs(deps, users.get(Number(note.author_id))),
    project_id: Number(project.id),
    project: projectAttrs(deps, project),
    object_attributes: plainNoteAttrs(note, 'Snippet', `${url}#note_${note.id}`),
    repository: repositoryAttrs(deps, project),
    snippet: {
      id: Number(snippet.id),
      title: snippet.title,
      description: snippet.description,
      content: file ? shownText(file) : '',
      author_id: Number(snippet.author_id),
      project_id: Number(project.id),
      created_at: hookTime(snippet.created_at),
      updated_at: hookTime(snippet.updated_at),
      file_name: file?.path ?? null,
      type: 'ProjectSnippet',
      visibility_level: visibilityLevel(snippet.visibility),
      url,
    },
  };
}
