// The "Attach a file" control of Markdown forms (issues, merge requests, comments). Without JavaScript
// it is a link to the upload page (pages: /<project>/uploads/new), which answers the Markdown to paste;
// kiln.js turns it into a file picker and a drop target on the form's text area that upload in place
// and insert the Markdown at the cursor (platform/web/scripts.ts, `[data-attach]`).
import { html, type Html } from '../platform/web/html.js';

export function attachControl(projectFullPath: string): Html {
  const base = `/${projectFullPath}/uploads`;
  return html`<p class="muted attach"><a href="${base}/new" target="_blank" rel="noopener" data-attach="${base}">Attach a file</a> (or drop it on the text)</p>`;
}
