// Which branches a protected branch rule names: the exact name, or a wildcard where each `*` stands
// for any run of characters, slashes included (GitLab's RefMatcher, app/models/ref_matcher.rb).
import { BoundedMap } from '../../platform/bounded-map.js';

export function isWildcard(pattern: string): boolean {
  return pattern.includes('*');
}

// A pure function of the pattern, the same in every app: kept once per process (bounded-map.ts).
const compiled = new BoundedMap<string, RegExp>(1000);

function wildcardRegex(pattern: string): RegExp {
  let regex = compiled.get(pattern);
  if (!regex) {
    const body = pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('.*?');
    regex = new RegExp(`^${body}$`, 's');
    compiled.set(pattern, regex);
  }
  return regex;
}

export function matchesBranch(pattern: string, branch: string): boolean {
  if (branch === '') return false;
  return isWildcard(pattern) ? wildcardRegex(pattern).test(branch) : pattern === branch;
}
