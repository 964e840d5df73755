// The emoji a user may award or wear in a status: the standard emoji by their shortcode names (GitHub's gemoji list, the
// names GitLab's award picker and its validation of `name` use: `thumbsup`, `+1`, `tada`, …). Kiln has
// no custom emoji.
import { gemoji } from 'gemoji';

const NAMES: ReadonlySet<string> = new Set(gemoji.flatMap((emoji) => emoji.names));

export function isEmojiName(name: string): boolean {
  return NAMES.has(name);
}

const CHARACTERS: ReadonlyMap<string, string> = new Map(gemoji.flatMap((emoji) => emoji.names.map((name) => [name, emoji.emoji] as const)));

/** The character of a shortcode name (`speech_balloon` → 💬), or undefined for an unknown name. */
export function emojiCharacter(name: string): string | undefined {
  return CHARACTERS.get(name);
}
