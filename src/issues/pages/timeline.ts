// An issue's timeline: comments and system notes in the order they were made, rendered as Markdown
// for this viewer (a system note's `~label`, `@user` and `#12` link only to what the viewer may see).
import type { PageContext } from '../../platform/web/page-route.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { html, raw, type Html } from '../../platform/web/html.js';
import { renderGitlabMarkdown } from '../../markdown/api.js';
import { notesQuery } from '../discussions-finder.js';
import { visibleNotes } from '../cross-reference-visibility.js';
import { usersById } from '../entities.js';
import { authorLink, when } from './shared.js';
import { noteAwardBlock, noteAwards } from '../award-emoji/award-bar.js';

const SHOWN = 1000;

/**
 * `self` is the issue's page (each comment's reactions are toggled under it, award-bar.ts); `outOfBand`:
 * marked for htmx to swap in by its id, beside another answer (sidebar-post.ts).
 */
export async function renderTimeline(context: PageContext, access: ProjectAccess, issueId: number, self: string, outOfBand = false): Promise<Html> {
  const { deps } = context;
  const notes = await visibleNotes(deps, access.user, await notesQuery(deps, { type: 'Issue', id: issueId }, 'created_at', 'asc').limit(SHOWN).execute(), access);
  const [users, bodies, awards] = await Promise.all([
    usersById(deps.db, notes.map((note) => note.author_id)),
    Promise.all(notes.map((note) => renderGitlabMarkdown(deps, note.body, { project: access }))),
    noteAwards(deps.db, notes.filter((note) => Number(note.system) !== 1).map((note) => Number(note.id))),
  ]);
  return html`<div id="notes"${outOfBand ? html` hx-swap-oob="true"` : ''}>${notes.map((note, index) =>
    Number(note.system) === 1
      ? html`<article class="note system" id="note_${note.id}"><p class="meta">${authorLink(users, note.author_id)}</p><div class="markdown">${raw(bodies[index])}</div> <span class="muted">· ${when(note.created_at)}</span></article>`
      : html`<article class="note" id="note_${note.id}"><p class="meta">${authorLink(users, note.author_id)} · ${when(note.created_at)}</p><div class="markdown">${raw(bodies[index])}</div>${noteAwardBlock(context, access, self, note, awards)}</article>`,
  )}${notes.length === 0 ? html`<p class="muted">No comments yet.</p>` : ''}</div>`;
}
