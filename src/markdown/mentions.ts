// `@username` references in Markdown, as GitLab's user reference filter finds them: not inside code
// (fenced blocks, inline code), not in the middle of a word or an e-mail address. `@all` and group
// mentions are not resolved (Kiln documents it: docs/notifications.md).
import { proseOnly } from './prose-only.js';

const MENTION = /(?<![\w@.+-])@([A-Za-z0-9_][A-Za-z0-9_.-]*)/g;

export function mentionedUsernames(text: string | null | undefined): string[] {
  if (!text) return [];
  const prose = proseOnly(text);
  const names = new Set<string>();
  for (const match of prose.matchAll(MENTION)) {
    // A sentence's full stop is not part of the name (GitLab's usernames never end with one).
    const name = match[1].replace(/[.-]+$/, '').toLowerCase();
    if (name !== '' && name !== 'all') names.add(name);
  }
  return [...names];
}
