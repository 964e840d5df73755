// GET /<project>/-/refs: the switcher's lists for a search (a fragment for htmx), and
// GET /<project>/-/refs/switch: the same page at another ref (the switcher's links and its form
// without JavaScript). A path that is not at the other ref leads to that ref's root, as GitLab does.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { fragment, redirect } from '../../platform/web/page.js';
import { NotFoundError } from '../../platform/errors.js';
import { readableRepository, repositoryRefs } from '../repository-api/project-repository.js';
import { entryAt } from '../repository-api/git-reads.js';
import { findCommit } from '../repository-api/object-reader.js';
import { cleanRepositoryPath } from '../repository-api/tree-entries.js';
import { refLists, SWITCH_DESTINATIONS, type SwitchDestination } from './ref-switcher.js';
import { splitRef } from './resolve-ref.js';
import { repoUrl } from './urls.js';

export const REFS_PATTERN = /^(?<path>.+?)\/-\/refs$/;
export const REF_SWITCH_PATTERN = /^(?<path>.+?)\/-\/refs\/switch$/;

function destinationOf(value: string | undefined): SwitchDestination {
  return (SWITCH_DESTINATIONS as readonly string[]).includes(value ?? '') ? (value as SwitchDestination) : 'tree';
}

export async function renderRefs(context: PageContext, access: ProjectAccess) {
  const refs = await repositoryRefs(await readableRepository(context.deps, access.project));
  const path = cleanRepositoryPath(context.query.path ?? '') ?? '';
  const base = `/${access.project.full_path}`;
  return fragment(refLists({ base, refs, defaultBranch: access.project.default_branch, destination: destinationOf(context.query.destination), path }, context.query.ref));
}

export async function switchRef(context: PageContext, access: ProjectAccess) {
  const repoPath = await readableRepository(context.deps, access.project);
  const refs = await repositoryRefs(repoPath);
  const name = (context.query.ref ?? '').trim();
  const split = splitRef(refs, name);
  // The whole name must be the ref: `main/x` is not the branch `main`.
  if (!repoPath || !split || split.path !== '') throw new NotFoundError('Ref');
  const base = `/${access.project.full_path}`;
  const destination = destinationOf(context.query.destination);
  const path = cleanRepositoryPath(context.query.path ?? '') ?? '';
  if (destination === 'graphs' || destination === 'find_file') return redirect(repoUrl(base, destination, split.ref), null, 302);
  if (path === '' || destination === 'commits') return redirect(repoUrl(base, destination === 'commits' ? 'commits' : 'tree', split.ref, path), null, 302);
  const commit = await findCommit(repoPath, split.target);
  const entry = commit ? await entryAt(repoPath, commit.id, path) : null;
  if (!entry) return redirect(repoUrl(base, 'tree', split.ref), null, 302);
  const kind = entry.type === 'tree' ? 'tree' : destination === 'blame' ? 'blame' : 'blob';
  return redirect(repoUrl(base, kind, split.ref, path), null, 302);
}
