// Which branches a protected branch rule names: the exact name, or a wildcard where each `*` stands
// for any run of characters, slashes included (GitLab's RefMatcher, app/models/ref_matcher.rb).

export function isWildcard(pattern: string): boolean {
  return pattern.includes('*');
}

const compiled = new Map<string, RegExp>();

function wildcardRegex(pattern: string): RegExp {
  let regex = compiled.get(pattern);
  if (!regex) {
    const body = pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('.*?');
    regex = new RegExp(`^${body}$`, 's');
    if (compiled.size > 1000) compiled.clear();
    compiled.set(pattern, regex);
  }
  return regex;
}

export function matchesBranch(pattern: string, branch: string): boolean {
  if (branch === '') return false;
  return isWildcard(pattern) ? wildcardRegex(pattern).test(branch) : pattern === branch;
}
