// Regular expressions written by users (a webhook's `regex` branch filter), run by a linear-time
// engine with RE2's syntax and semantics, as GitLab's Gitlab::UntrustedRegexp does: no backreferences
// or lookarounds, and no input makes matching slower than linear. re2js is RE2 ported to JavaScript:
// no native build (the `re2` binding fetches a prebuilt binary or compiles C++ at install), and the
// texts it is given here are branch names, matched in microseconds (a catastrophic pattern for a
// backtracking engine, `(a+)+b` against 105 `a`s, ~20 µs).
import { RE2JS } from 're2js';
import { BoundedMap } from '../bounded-map.js';

/** The longest pattern accepted (GitLab's limit on a wildcard branch filter, applied to both strategies). */
export const MAX_PATTERN_LENGTH = 4000;

export class UntrustedRegexpError extends Error {}

// A pure function of the pattern, the same in every app: one per process (bounded-map.ts).
const compiled = new BoundedMap<string, RE2JS>(1000);

/** The compiled pattern; throws UntrustedRegexpError with RE2's reason when it is not valid RE2 syntax. */
export function untrustedRegexp(pattern: string): RE2JS {
  let regexp = compiled.get(pattern);
  if (!regexp) {
    if (pattern.length > MAX_PATTERN_LENGTH) throw new UntrustedRegexpError(`is longer than the allowed length of ${MAX_PATTERN_LENGTH} characters`);
    try {
      regexp = RE2JS.compile(pattern);
    } catch (error) {
      throw new UntrustedRegexpError(String((error as Error).message));
    }
    compiled.set(pattern, regexp);
  }
  return regexp;
}

/** Whether the pattern matches anywhere in `text` (Ruby's `match?`, unanchored); an invalid pattern matches nothing. */
export function untrustedRegexpMatches(pattern: string, text: string): boolean {
  try {
    return untrustedRegexp(pattern).matcher(text).find();
  } catch (error) {
    if (error instanceof UntrustedRegexpError) return false;
    throw error;
  }
}
