// Which branches a protected branch rule names: the exact name, or a wildcard where each `*` stands
// for any run of characters, slashes included (GitLab's RefMatcher, app/models/ref_matcher.rb),
// matched without a regular expression (platform/patterns/wildcard.ts: linear in the name).
import { wildcardMatches } from '../../platform/patterns/wildcard.js';

export function isWildcard(pattern: string): boolean {
  return pattern.includes('*');
}

export function matchesBranch(pattern: string, branch: string): boolean {
  if (branch === '') return false;
  return isWildcard(pattern) ? wildcardMatches(pattern, branch) : pattern === branch;
}
