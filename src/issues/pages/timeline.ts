// An issue's timeline: comments and system notes in the order they were made, rendered as Markdown
// for this viewer (a system note's `~label`, `@user` and `#12` link only to what the viewer may see).
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { html, raw, type Html } from '../../platform/web/html.js';
import { renderGitlabMarkdown } from '../../markdown/api.js';
import { notesQuery } from '../discussions-finder.js';
import { visibleNotes } from '../cross-reference-visibility.js';
import { usersById } from '../entities.js';
import { authorLink, when } from './shared.js';

const SHOWN = 1000;

/** `outOfBand`: marked for htmx to swap in by its id, beside another answer (sidebar-post.ts). */
export async function renderTimeline(deps: Deps, access: ProjectAccess, issueId: number, outOfBand = false): Promise<Html> {
  const notes = await visibleNotes(deps, access.user, await notesQuery(deps, { type: 'Issue', id: issueId }, 'created_at', 'asc').limit(SHOWN).execute(), access);
  const users = await usersById(deps.db, notes.map((note) => note.author_id));
  const bodies = await Promise.all(notes.map((note) => renderGitlabMarkdown(deps, note.body, { project: access })));
  return html`<div id="notes"${outOfBand ? html` hx-swap-oob="true"` : ''}>${notes.map((note, index) =>
    Number(note.system) === 1
      ? html`<article class="note system" id="note_${note.id}"><p class="meta">${authorLink(users, note.author_id)}</p><div class="markdown">${raw(bodies[index])}</div> <span class="muted">· ${when(note.created_at)}</span></article>`
      : html`<article class="note" id="note_${note.id}"><p class="meta">${authorLink(users, note.author_id)} · ${when(note.created_at)}</p><div class="markdown">${raw(bodies[index])}</div></article>`,
  )}${notes.length === 0 ? html`<p class="muted">No comments yet.</p>` : ''}</div>`;
}
