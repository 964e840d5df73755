// The keyboard shortcuts' help: an empty <dialog> every page carries, filled by the shortcut script
// with the shortcuts of the page it opens on (script.ts), and the menu entry that opens it — hidden
// until the script shows it, as without the script there are no shortcuts to list.
import { html, type Html } from '../html.js';

export const SHORTCUTS_DIALOG: Html = html`<dialog id="keyboard-shortcuts" class="shortcuts-dialog" aria-labelledby="keyboard-shortcuts-title">
<h2 id="keyboard-shortcuts-title">Keyboard shortcuts</h2>
<p class="muted">Not while typing in a field. A two-key shortcut such as <kbd>g</kbd> then <kbd>i</kbd> wants its second key within a second.</p>
<div data-shortcut-list></div>
<form method="dialog"><button type="submit">Close</button></form>
</dialog>`;

/** The entry that opens the dialog, for the user menu (a list item) or the visitor's top bar. */
export function shortcutsButton(): Html {
  return html`<button type="button" class="link" data-show-shortcuts hidden>Keyboard shortcuts</button>`;
}
