// Webhook rules as data: the event flags GitLab accepts (and which of them Kiln fires), their
// defaults per hook type, and GitLab's auto-disabling (WebHooks::AutoDisabling): after 4 consecutive
// failures a hook is disabled for a while, one minute doubling per backoff up to a day, and after 40
// it stays disabled until it is edited or a test succeeds.
import { MAX_PATTERN_LENGTH, untrustedRegexp, untrustedRegexpMatches, UntrustedRegexpError } from '../platform/patterns/untrusted-regexp.js';
import { wildcardMatches } from '../platform/patterns/wildcard.js';
import type { WebHookType } from '../platform/db/tables/webhooks.js';
import { DAY_MS } from '../platform/clock.js';

/** The flags Kiln fires; each is also a column the listeners filter on. */
export const FIRED_FLAGS = ['push_events', 'tag_push_events', 'issues_events', 'confidential_issues_events', 'note_events', 'confidential_note_events', 'deployment_events', 'merge_requests_events', 'releases_events',
  'pipeline_events', 'job_events', 'wiki_page_events'] as const;
export type FiredFlag = (typeof FIRED_FLAGS)[number];

/** Flags GitLab accepts on project and group hooks that Kiln stores and answers but never fires (no such events here). */
export const STORED_FLAGS = [
  'feature_flag_events',
  'emoji_events', 'resource_access_token_events', 'repository_update_events',
] as const;
/** Group hooks only. */
export const GROUP_FLAGS = ['subgroup_events', 'member_events'] as const;

export type HookFlags = Record<string, boolean>;

export const PROJECT_HOOK_FLAGS = [...FIRED_FLAGS, ...STORED_FLAGS];
export const GROUP_HOOK_FLAGS = [...FIRED_FLAGS, ...STORED_FLAGS, ...GROUP_FLAGS];
export const SYSTEM_HOOK_FLAGS = ['push_events', 'tag_push_events', 'merge_requests_events', 'repository_update_events'];

export function flagNames(type: WebHookType): string[] {
  return type === 'SystemHook' ? SYSTEM_HOOK_FLAGS : type === 'GroupHook' ? GROUP_HOOK_FLAGS : PROJECT_HOOK_FLAGS;
}

/** GitLab's defaults: project and group hooks fire on pushes only; system hooks on system events and repository updates. */
export function defaultFlags(type: WebHookType): HookFlags {
  const flags = Object.fromEntries(flagNames(type).map((name) => [name, false]));
  if (type === 'SystemHook') flags.repository_update_events = true;
  else flags.push_events = true;
  return flags;
}

export const FAILURE_THRESHOLD = 3;
export const PERMANENT_FAILURE_THRESHOLD = 39;
export const INITIAL_BACKOFF_MS = 60_000;
export const MAX_BACKOFF_MS = DAY_MS;
export const MAX_FAILURES = 100;

export interface FailureState {
  recent_failures: number;
  backoff_count: number;
  disabled_until: number | null;
}

export type AlertStatus = 'executable' | 'temporarily_disabled' | 'disabled';

/** GitLab's alert_status: permanently disabled after 40 failures, temporarily while a backoff lasts. */
export function alertStatus(state: FailureState, now: number): AlertStatus {
  if (Number(state.recent_failures) > PERMANENT_FAILURE_THRESHOLD) return 'disabled';
  if (Number(state.recent_failures) > FAILURE_THRESHOLD && state.disabled_until !== null && Number(state.disabled_until) > now) return 'temporarily_disabled';
  return 'executable';
}

export const executable = (state: FailureState, now: number) => alertStatus(state, now) === 'executable';

/** The state after a failed delivery: counted, and past the threshold backed off (1 min × 2^n, at most a day). */
export function afterFailure(state: FailureState, now: number): FailureState {
  const failures = Math.min(Number(state.recent_failures) + 1, MAX_FAILURES);
  if (failures <= FAILURE_THRESHOLD) return { recent_failures: failures, backoff_count: Number(state.backoff_count), disabled_until: state.disabled_until };
  const backoff = Number(state.backoff_count) + 1;
  const wait = Math.min(INITIAL_BACKOFF_MS * 2 ** (backoff - 1), MAX_BACKOFF_MS);
  return { recent_failures: failures, backoff_count: backoff, disabled_until: now + wait };
}

/** A success, an edit or a successful test clears every failure. */
export const HEALTHY: FailureState = { recent_failures: 0, backoff_count: 0, disabled_until: null };

/**
 * GitLab's push_events_branch_filter (ActiveHookFilter): with the `wildcard` strategy `*` matches any
 * run of characters (slashes included) and the whole name must match; a blank filter lets every
 * branch through. `all_branches` ignores the filter and `regex` is an RE2 expression matched anywhere
 * in the name. Neither builds a backtracking RegExp from the filter (platform/patterns).
 */
export function branchMatches(filter: string | null, strategy: string, branch: string): boolean {
  if (strategy === 'all_branches' || filter === null || filter.trim() === '') return true;
  if (strategy === 'regex') return untrustedRegexpMatches(filter, branch);
  return wildcardMatches(filter, branch);
}

/**
 * Why GitLab would refuse the filter for the strategy (WebHooks::Hook's validators), or null: a
 * wildcard of at most 4,000 characters; a regex that is valid RE2 (UntrustedRegexpValidator), as long.
 */
export function branchFilterError(filter: string | null, strategy: string): string | null {
  if (filter === null || filter.trim() === '' || strategy === 'all_branches') return null;
  if (filter.length > MAX_PATTERN_LENGTH) return `is longer than the allowed length of ${MAX_PATTERN_LENGTH} characters.`;
  if (strategy !== 'regex') return null;
  try {
    untrustedRegexp(filter);
    return null;
  } catch (error) {
    if (error instanceof UntrustedRegexpError) return `not valid RE2 syntax: ${error.message}`;
    throw error;
  }
}
