// What other features may use of Markdown: the renderer for a viewer (references resolved for them)
// and the pure renderer with its link check, for pages that show Markdown.
export { renderGitlabMarkdown, type ViewerRenderOptions } from './render-gitlab-markdown.js';
export { renderMarkdown, isSafeLink, type References, type RenderOptions } from './render-markdown.js';
