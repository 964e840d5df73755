// The branch and tag switcher on every repository page (GitLab's ref selector): a menu with the
// first branches and tags, a search that asks the server for more (htmx, `/-/refs`), and without
// JavaScript a form whose typed name goes to `/-/refs/switch`, which redirects to the same page at
// that ref. `destination` is the kind of page (tree, blob, commits, blame, graphs, find_file).
import { html, type Html } from '../../platform/web/html.js';
import { BRANCH_PREFIX, TAG_PREFIX } from '../repository-api/ref-names.js';
import { compareNames, matchesSearch } from '../repository-api/ref-filters.js';
import { repoUrl } from './urls.js';

export const SWITCH_DESTINATIONS = ['tree', 'blob', 'commits', 'blame', 'graphs', 'find_file'] as const;
export type SwitchDestination = (typeof SWITCH_DESTINATIONS)[number];
const SHOWN = 20;

export interface SwitcherInput {
  base: string;
  refs: ReadonlyMap<string, string>;
  defaultBranch: string;
  current: string;
  destination: SwitchDestination;
  path: string;
}

/** Branch and tag names matching `search`: the default branch first, then by name; at most `limit` of each. */
export function matchingRefs(refs: ReadonlyMap<string, string>, defaultBranch: string, search: string | undefined, limit = SHOWN) {
  const names = (prefix: string) =>
    [...refs.keys()]
      .filter((ref) => ref.startsWith(prefix))
      .map((ref) => ref.slice(prefix.length))
      .filter((name) => matchesSearch(name, search))
      .sort((a, b) => (a === defaultBranch ? -1 : b === defaultBranch ? 1 : compareNames(a, b)));
  const branches = names(BRANCH_PREFIX);
  const tags = names(TAG_PREFIX);
  return { branches: branches.slice(0, limit), tags: tags.slice(0, limit), moreBranches: branches.length > limit, moreTags: tags.length > limit };
}

function targetOf(input: Omit<SwitcherInput, 'refs' | 'current' | 'defaultBranch'>, name: string): string {
  if (input.destination === 'find_file' || input.destination === 'graphs') return repoUrl(input.base, input.destination, name);
  return `${input.base}/-/refs/switch?${new URLSearchParams({ ref: name, destination: input.destination, path: input.path }).toString()}`;
}

/** The lists inside the menu (also the answer to a search). */
export function refLists(input: Omit<SwitcherInput, 'current'>, search?: string): Html {
  const found = matchingRefs(input.refs, input.defaultBranch, search);
  const list = (title: string, names: string[], more: boolean) =>
    names.length === 0
      ? html``
      : html`<h3>${title}</h3><ul>${names.map((name) => html`<li><a href="${targetOf(input, name)}">${name}</a></li>`)}</ul>${more ? html`<p class="muted">Search to find more.</p>` : ''}`;
  const none = found.branches.length === 0 && found.tags.length === 0;
  return html`${list('Branches', found.branches, found.moreBranches)}${list('Tags', found.tags, found.moreTags)}${none ? html`<p class="muted">No branch or tag matches.</p>` : ''}`;
}

export function refSwitcher(input: SwitcherInput): Html {
  const query = new URLSearchParams({ destination: input.destination, path: input.path }).toString();
  return html`<details class="ref-switcher" id="ref-switcher"><summary>${input.current}<span class="visually-hidden"> (switch branch or tag)</span></summary>
<div class="ref-menu">
<form method="get" action="${input.base}/-/refs/switch" role="search">
<input type="hidden" name="destination" value="${input.destination}"><input type="hidden" name="path" value="${input.path}">
<label class="visually-hidden" for="ref-search">Search branches and tags</label>
<input type="search" id="ref-search" name="ref" placeholder="Search branches and tags" autocomplete="off" hx-get="${input.base}/-/refs?${query}" hx-trigger="input changed delay:200ms, search" hx-target="#ref-lists">
</form>
<div id="ref-lists">${refLists(input)}</div>
</div></details>`;
}
