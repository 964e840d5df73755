// GitLab Flavored Markdown as a viewer sees it: references resolved for them, then rendered. The one
// entry point for the API and for pages that show Markdown.
import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { renderMarkdown } from './render-markdown.js';
import { resolveReferences } from './references.js';

export interface ViewerRenderOptions {
  /** GitLab Flavored Markdown: autolinks and references (default true, as pages render). */
  gfm?: boolean;
  /**
   * The project `#12` refers to, as the viewer's access to it (it names the viewer): only issues
   * that access may read are linked. Without it, `#12` stays text.
   */
  project?: ProjectAccess;
}

export async function renderGitlabMarkdown(deps: Deps, text: string, options: ViewerRenderOptions = {}): Promise<string> {
  const gfm = options.gfm ?? true;
  const references = gfm ? await resolveReferences(deps, text, options.project) : undefined;
  return renderMarkdown(text, { gfm, references, baseUrl: deps.config.baseUrl });
}
