// Commit references (GitLab's CommitReferenceFilter): `1a2b3c4` (7 to 40 hex digits) in the context
// project and `project@1a2b3c4` / `group/project@1a2b3c4` elsewhere become links to the commit page when
// the viewer may read that project's code and the commit exists there; anything else stays text (a
// number that happens to be hexadecimal names no commit, so nothing changes). Looked up through the
// repositories' hook (their long-lived cat-file reader), a bounded number per text.
import type { Deps } from '../platform/deps.js';
import type { ProjectAccess, ProjectRow } from '../platform/auth/subjects.js';
import { canOnProject } from '../platform/auth/policies/index.js';
import { findProjectRow, projectAccess, projectWebUrl } from '../accounts/api.js';
import { markdownHooks } from './hooks.js';
import { COMMIT_REFERENCE, commitKey, type ResolvedCommit } from './render-markdown.js';
import { referencedProjectPath } from './project-paths.js';

/** At most this many SHAs are looked up in one text, in at most this many projects. */
const MAX_COMMITS = 50;
const MAX_PROJECTS = 10;
/** GitLab's Commit#short_id: what a commit link shows. */
const SHORT_ID = 8;

/** The project a written path names, when the viewer may read its code. */
async function readableCode(deps: Deps, context: ProjectAccess, written: string | undefined): Promise<ProjectRow | null> {
  if (!written) return canOnProject(context, 'download_code') ? context.project : null;
  const fullPath = referencedProjectPath(written, context.project);
  const row = fullPath.toLowerCase() === context.project.full_path.toLowerCase() ? context.project : await findProjectRow(deps, fullPath);
  if (!row) return null;
  if (Number(row.id) === Number(context.project.id)) return canOnProject(context, 'download_code') ? row : null;
  const level = (await projectAccess(deps.reads, context.user, row, deps.clock.now())).level;
  return canOnProject({ user: context.user, level, visibility: row.visibility, features: row }, 'download_code') ? row : null;
}

export async function resolveCommitReferences(deps: Deps, text: string, context: ProjectAccess): Promise<Map<string, ResolvedCommit>> {
  const found = new Map<string, ResolvedCommit>();
  // written path (lower case, '' for the context project) → the SHAs written with it.
  const wanted = new Map<string, { written: string | undefined; shas: Set<string> }>();
  let count = 0;
  for (const match of text.matchAll(COMMIT_REFERENCE)) {
    if (count >= MAX_COMMITS) break;
    const key = (match[1] ?? '').toLowerCase();
    let entry = wanted.get(key);
    if (!entry) {
      if (wanted.size >= MAX_PROJECTS) continue;
      entry = { written: match[1], shas: new Set() };
      wanted.set(key, entry);
    }
    const sha = match[2].toLowerCase();
    if (!entry.shas.has(sha)) count += 1;
    entry.shas.add(sha);
  }
  for (const entry of wanted.values()) {
    const project = await readableCode(deps, context, entry.written);
    const readCommits = markdownHooks(deps).readCommits;
    if (!project || !readCommits) continue;
    const shas = [...entry.shas];
    // `abc1234^{commit}`: git expands an unambiguous prefix; what it finds is keyed by its full id.
    const commits = await readCommits(project, shas.map((sha) => `${sha}^{commit}`));
    const base = projectWebUrl(deps.config.baseUrl, project.full_path);
    for (const sha of shas) {
      const commit = commits.find((candidate) => candidate.id.startsWith(sha));
      if (!commit) continue;
      found.set(commitKey(entry.written, sha), {
        url: `${base}/-/commit/${commit.id}`, title: commit.title, text: commit.id.slice(0, SHORT_ID), projectId: Number(project.id), sha: commit.id,
      });
    }
  }
  return found;
}
