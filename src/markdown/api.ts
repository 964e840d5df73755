// What other features may use of Markdown: the renderer for a viewer (references resolved for them,
// rendered off the event loop within a time budget), the one way pages, the API and e-mail render.
export { renderGitlabMarkdown, type ViewerRenderOptions } from './render-gitlab-markdown.js';
export type { RelativeLinks } from './relative-links.js';
export { ISSUE_REFERENCE } from './render-markdown.js';
// Issue 34: cross-reference system notes find the issues and merge requests a text names the same way.
export { MERGE_REQUEST_REFERENCE, PROJECT_REFERENCE } from './render-markdown.js';
export { referencedProjectPath } from './project-paths.js';
// References inside code name nothing: the scanners that look for them read the prose only.
export { proseOnly } from './prose-only.js';
export { mentionedUsernames } from './mentions.js';
// Repositories answer the commits a Markdown text names (commit references).
export { markdownHooks, type ReferencedCommit } from './hooks.js';
// Markup files (blobs, READMEs, wiki pages) by their format: Markdown and AsciiDoc.
export { markupOf, renderMarkup, type MarkupFormat } from './markup.js';
