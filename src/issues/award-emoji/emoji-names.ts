// The emoji a user may award: the standard emoji by their shortcode names (GitHub's gemoji list, the
// names GitLab's award picker and its validation of `name` use: `thumbsup`, `+1`, `tada`, …). Kiln has
// no custom emoji.
import { gemoji } from 'gemoji';

const NAMES: ReadonlySet<string> = new Set(gemoji.flatMap((emoji) => emoji.names));

export function isEmojiName(name: string): boolean {
  return NAMES.has(name);
}
