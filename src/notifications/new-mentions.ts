// Who an issue or merge request edit newly mentions, as GitLab's UpdateService#handle_added_mentions decides:
// the users mentioned in the title or description after the edit that neither mentioned before.
// Edited comments mail nobody (GitLab's Notes::UpdateService only updates to-do items).
import { mentionedUsernames } from '../markdown/api.js';

const TEXTS = ['title', 'description'] as const;

function mentionsIn(values: Record<string, unknown>): Set<string> {
  return new Set(TEXTS.flatMap((field) => {
    const text = values[field];
    return mentionedUsernames(typeof text === 'string' ? text : null);
  }));
}

/** Usernames (lower case) the edit added; none when neither text changed. */
export function addedMentions(event: { changes: readonly string[]; previous?: Record<string, unknown>; current?: Record<string, unknown> }): string[] {
  if (!event.changes.some((field) => field === 'title' || field === 'description')) return [];
  // An event queued by a version that carried no values: nothing to compare, no mail.
  if (!event.previous || !event.current) return [];
  const before = mentionsIn(event.previous);
  return [...mentionsIn(event.current)].filter((name) => !before.has(name));
}
