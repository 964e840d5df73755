// What other features may use of snippets: a snippet's page address (a Note Hook on a snippet links it),
// the text a file shows (none for a binary one), and who reads one (a comment's e-mail goes only to them).
export { snippetWebUrl } from './entities.js';
export { canReadSnippet } from './snippet-policy.js';
export { shownText } from './binary-files.js';
export type { SnippetRow } from './finder.js';
