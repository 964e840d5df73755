// The README at the root of the default branch, as a project's overview shows it (GitLab picks the
// first of README.md, README, README.txt, … in that order of preference; Markdown and AsciiDoc ones
// are rendered).
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { findCommit, readObject } from './object-reader.js';
import { listTree } from './git-reads.js';
import { readableRepository } from './project-repository.js';
import { isBinary } from './files-finder.js';
import { markupOf, type MarkupFormat, type RelativeLinks } from '../../markdown/api.js';
import { relativeLinksFor } from './web-paths.js';

const README = /^readme(?:\.(md|markdown|mdown|mkd|txt|rst|adoc|asciidoc|asc))?$/i;
const MAX_BYTES = 1024 * 1024;

export interface Readme {
  path: string;
  text: string;
  /** The markup it is rendered as, or null: shown as text. */
  format: MarkupFormat | null;
  /** Where its relative links and images lead: the repository at the default branch. */
  relativeLinks: RelativeLinks;
}

/** null when there is no repository, no default branch, no README or a binary or huge one. */
export async function findReadme(deps: Deps, access: ProjectAccess): Promise<Readme | null> {
  const repoPath = await readableRepository(deps, access.project);
  const commit = repoPath ? await findCommit(repoPath, access.project.default_branch) : null;
  if (!repoPath || !commit) return null;
  const entries = (await listTree(repoPath, commit.id, '', false)) ?? [];
  const candidates = entries.filter((entry) => entry.type === 'blob' && README.test(entry.path));
  // Markdown first, then AsciiDoc, then a plain README, then the rest (GitLab's preference: rendered markup first).
  const rank = (path: string) => {
    const format = markupOf(path);
    return format === 'markdown' ? 0 : format === 'asciidoc' ? 1 : /^readme$/i.test(path) ? 2 : 3;
  };
  const entry = candidates.sort((a, b) => rank(a.path) - rank(b.path))[0];
  if (!entry) return null;
  const blob = await readObject(repoPath, entry.id);
  if (!blob || blob.content.length > MAX_BYTES || isBinary(blob.content)) return null;
  const relativeLinks = relativeLinksFor(`/${access.project.full_path}`, access.project.default_branch, entry.path);
  return { path: entry.path, text: blob.content.toString('utf8'), format: markupOf(entry.path), relativeLinks };
}
