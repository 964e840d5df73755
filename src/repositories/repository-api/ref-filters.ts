// Name filters and orders of the branch and tag lists (GitLab's BranchesFinder and TagsFinder):
// `search` matches anywhere, `^term` at the start, `term$` at the end, `^term$` exactly, in any case.

export function matchesSearch(name: string, search: string | undefined): boolean {
  if (!search) return true;
  const term = search.toLowerCase();
  const value = name.toLowerCase();
  const anchoredStart = term.startsWith('^');
  const anchoredEnd = term.endsWith('$') && term.length > (anchoredStart ? 1 : 0);
  const core = term.slice(anchoredStart ? 1 : 0, anchoredEnd ? -1 : undefined);
  if (anchoredStart && anchoredEnd) return value === core;
  if (anchoredStart) return value.startsWith(core);
  if (anchoredEnd) return value.endsWith(core);
  return value.includes(core);
}

/** Version order (`v1.9` before `v1.10`): digit runs compare as numbers. */
export function compareVersions(a: string, b: string): number {
  const split = (text: string) => text.split(/(\d+)/).filter((part) => part !== '');
  const left = split(a);
  const right = split(b);
  for (let index = 0; index < Math.min(left.length, right.length); index += 1) {
    const [x, y] = [left[index], right[index]];
    const numeric = /^\d+$/.test(x) && /^\d+$/.test(y);
    const order = numeric ? Number(x) - Number(y) || x.length - y.length : x < y ? -1 : x > y ? 1 : 0;
    if (order !== 0) return order;
  }
  return left.length - right.length;
}

export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
