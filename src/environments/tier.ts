// Deployment tiers (GitLab 13.10+ `environments.tier`) and the guess GitLab makes from the name when
// none is given (app/models/environment.rb `guess_tier`, 14.x). The first matching rule wins.
import type { EnvironmentTier } from '../platform/db/tables/environments.js';

export const TIERS: readonly EnvironmentTier[] = ['production', 'staging', 'testing', 'development', 'other'];

const GUESSES: Array<[RegExp, EnvironmentTier]> = [
  [/dev|review|trunk/i, 'development'],
  [/test|qc/i, 'testing'],
  [/st(a|)g|mod(e|)l|pre|demo/i, 'staging'],
  [/pr(o|)d|live/i, 'production'],
];

export function guessTier(name: string): EnvironmentTier {
  for (const [pattern, tier] of GUESSES) if (pattern.test(name)) return tier;
  return 'other';
}
