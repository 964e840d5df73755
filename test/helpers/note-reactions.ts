// One comment's reactions on an issue or merge request page, as a reader clicks them: the block shown
// under the comment, an award from the picker (a plain form), then the same toggled back with htmx,
// which answers the block alone. Shared by the issue and merge request page tests.
import { expect } from 'vitest';
import type { TestKiln } from './kiln.js';
import { csrfTokenOf, type WebSession } from './browser-session.js';

/** `self`: the page; `awarded`: the comment's award names through the API. */
export async function toggleNoteReaction(kiln: TestKiln, web: WebSession, self: string, noteId: number, awarded: () => Promise<string[]>): Promise<void> {
  const page = (await web.get(self)).body;
  expect(page).toContain(`<div class="awards actions note-awards" id="awards-note-${noteId}" role="group" aria-label="Reactions to this comment">`);
  expect(page).toContain(`action="${self}/notes/${noteId}/award"`);
  expect(page).toContain(`<label for="awards-note-${noteId}-pick" class="visually-hidden">Add reaction</label>`);
  expect((await web.post(`${self}/notes/${noteId}/award`, { name: 'rocket' }, { csrfFrom: self })).statusCode).toBe(303);
  expect(await awarded()).toEqual(['rocket']);
  const shown = (await web.get(self)).body;
  expect(shown).toContain('aria-pressed="true" aria-label="rocket: 1, yours"');
  const swapped = await kiln.app.inject({
    method: 'POST',
    url: `${self}/notes/${noteId}/award`,
    headers: { cookie: web.cookie, 'content-type': 'application/x-www-form-urlencoded', 'hx-request': 'true' },
    payload: new URLSearchParams({ authenticity_token: csrfTokenOf(shown), name: 'rocket' }).toString(),
  });
  expect(swapped.statusCode).toBe(200);
  expect(swapped.body).toMatch(new RegExp(`^<div class="awards actions note-awards" id="awards-note-${noteId}"`));
  expect(await awarded()).toEqual([]);
}
