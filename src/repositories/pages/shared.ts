// What the repository pages share: a commit's author line and title, and the split of
// `<ref>/<path>` in tree and blob URLs (a ref may hold slashes, so the longest prefix that names a
// commit wins, as GitLab's ExtractsRef does).
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { NotFoundError } from '../../platform/errors.js';
import { html, type Html } from '../../platform/web/html.js';
import { findCommit, readableRepository, type CommitObject, type Signature } from '../repository-api/pages-api.js';

export function signedAt(signature: Signature): string {
  return new Date(signature.seconds * 1000).toISOString().slice(0, 16).replace('T', ' ');
}

export function authorLine(commit: CommitObject): Html {
  return html`<span class="author">${commit.author.name}</span> <span class="muted">authored ${signedAt(commit.author)}</span>`;
}

export function commitLink(base: string, commit: CommitObject): Html {
  return html`<a href="${base}/-/commit/${commit.id}"><code>${commit.id.slice(0, 8)}</code></a>`;
}

export function commitTitle(commit: CommitObject): string {
  return commit.message.split('\n')[0] ?? '';
}

/** `<ref>/<path>` split where the longest leading run of segments names a commit; 404 otherwise. */
export async function splitRefAndPath(deps: Deps, access: ProjectAccess, rest: string): Promise<{ ref: string; path: string }> {
  const repoPath = await readableRepository(deps, access.project);
  const segments = rest.split('/');
  if (repoPath) {
    for (let count = segments.length; count > 0; count--) {
      const ref = segments.slice(0, count).join('/');
      if (ref && !ref.startsWith('-') && !ref.includes(':') && (await findCommit(repoPath, ref))) return { ref, path: segments.slice(count).join('/') };
    }
  }
  throw new NotFoundError('Tree');
}

export function pathCrumbs(base: string, kind: 'tree' | 'blob', ref: string, path: string): Html {
  const segments = path ? path.split('/') : [];
  return html`<nav class="breadcrumbs" aria-label="Path"><a href="${base}/-/tree/${ref}">${ref}</a>${segments.map((segment, index) => {
    const upto = segments.slice(0, index + 1).join('/');
    const last = index === segments.length - 1;
    return html` / ${last ? html`<span aria-current="page">${segment}</span>` : html`<a href="${base}/-/${kind === 'blob' && last ? 'blob' : 'tree'}/${ref}/${upto}">${segment}</a>`}`;
  })}</nav>`;
}
