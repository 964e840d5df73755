// The bar above every page of files and history: the ref switcher, where in the tree the page is
// (each folder a link), and the page's own actions; and the permalink (`y`) and "find file" (`t`)
// addresses the keyboard shortcuts of kiln.js read.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { html, type Html } from '../../platform/web/html.js';
import { refSwitcher, type SwitchDestination } from './ref-switcher.js';
import type { ResolvedRef } from './resolve-ref.js';
import { repoUrl } from './urls.js';

export interface RefBarInput {
  access: ProjectAccess;
  resolved: ResolvedRef;
  destination: SwitchDestination;
  /** The kind of page the path's last segment is shown on. */
  leaf: 'tree' | 'blob' | 'blame' | 'commits';
  actions?: Html;
}

export function breadcrumbs(base: string, ref: string, path: string, leaf: RefBarInput['leaf']): Html {
  const segments = path === '' ? [] : path.split('/');
  const folderKind = leaf === 'commits' ? 'commits' : 'tree';
  return html`<nav class="breadcrumbs" aria-label="Path"><a href="${repoUrl(base, folderKind, ref)}">${base.slice(base.lastIndexOf('/') + 1)}</a>${segments.map((segment, index) => {
    const upto = segments.slice(0, index + 1).join('/');
    return index === segments.length - 1
      ? html` / <strong aria-current="page">${segment}</strong>`
      : html` / <a href="${repoUrl(base, folderKind, ref, upto)}">${segment}</a>`;
  })}</nav>`;
}

export function refBar(input: RefBarInput): Html {
  const { access, resolved } = input;
  const base = `/${access.project.full_path}`;
  const permalinkKind = input.leaf;
  return html`<div class="ref-bar" data-permalink="${repoUrl(base, permalinkKind, resolved.commit.id, resolved.path)}" data-find-file="${repoUrl(base, 'find_file', resolved.ref)}">
${refSwitcher({ base, refs: resolved.refs, defaultBranch: access.project.default_branch, current: resolved.ref, destination: input.destination, path: resolved.path })}
${breadcrumbs(base, resolved.ref, resolved.path, input.leaf)}
${input.actions ?? ''}
</div>`;
}
