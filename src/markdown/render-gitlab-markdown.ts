// GitLab Flavored Markdown as a viewer sees it: references resolved for them, then rendered off the
// event loop within a time budget (bounded-render.ts). The one entry point for the API, the pages and
// the e-mail that show Markdown.
import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { MAX_MARKDOWN_CHARACTERS, plainTextFallback, renderBounded } from './bounded-render.js';
import { resolveReferences } from './references.js';
import type { RelativeLinks } from './relative-links.js';

export interface ViewerRenderOptions {
  /** GitLab Flavored Markdown: autolinks and references (default true, as pages render). */
  gfm?: boolean;
  /**
   * The project `#12` refers to, as the viewer's access to it (it names the viewer): only issues
   * that access may read are linked. Without it, `#12` stays text.
   */
  project?: ProjectAccess;
  /** A file of a repository (a README, a blob): relative links and images resolve in it. */
  relativeLinks?: RelativeLinks;
}

export async function renderGitlabMarkdown(deps: Deps, text: string, options: ViewerRenderOptions = {}): Promise<string> {
  // Not scanned for references either: the text is shown plain.
  if (text.length > MAX_MARKDOWN_CHARACTERS) return plainTextFallback(text, 'too_large');
  const gfm = options.gfm ?? true;
  const references = gfm ? await resolveReferences(deps, text, options.project) : undefined;
  // A project's texts link its uploads as `/uploads/…`, which lead under the project's path.
  const uploadsBase = options.project ? `/${options.project.project.full_path}` : undefined;
  return renderBounded(text, { gfm, references, baseUrl: deps.config.baseUrl, relativeLinks: options.relativeLinks, uploadsBase }, { budgetMs: deps.config.markdownRenderMs, workers: deps.config.markdownWorkers });
}
