// User wildcards (`release/*`, `*.rb`) matched without a regular expression: the text between the
// stars must appear in order, the first at the start and the last at the end where the pattern is
// anchored there. Each piece is found with indexOf from where the previous one ended, leftmost first,
// which is exact for `*`-only patterns and linear in the text for a given pattern. A RegExp built
// from the pattern (`a*a*a*a*a*a*b` → `^a.*?a.*?…b$`) backtracks: against a 105-character branch name
// it took seconds, on every branch listing and push (issue 33).

export interface WildcardOptions {
  /** The pattern's first piece must start the text (true: `release/*` does not match `old-release/x`). */
  anchorStart?: boolean;
  /** The pattern's last piece must end the text. */
  anchorEnd?: boolean;
  caseInsensitive?: boolean;
}

/** Whether `text` matches `pattern`, where each `*` stands for any run of characters (slashes included). */
export function wildcardMatches(pattern: string, text: string, options: WildcardOptions = {}): boolean {
  const { anchorStart = true, anchorEnd = true, caseInsensitive = false } = options;
  if (caseInsensitive) {
    pattern = pattern.toLowerCase();
    text = text.toLowerCase();
  }
  const pieces = pattern.split('*');
  if (pieces.length === 1) {
    if (anchorStart && anchorEnd) return text === pattern;
    if (anchorStart) return text.startsWith(pattern);
    if (anchorEnd) return text.endsWith(pattern);
    return text.includes(pattern);
  }
  let from = 0;
  let to = text.length;
  let first = 0;
  let last = pieces.length - 1;
  if (anchorStart) {
    if (!text.startsWith(pieces[0])) return false;
    from = pieces[0].length;
    first = 1;
  }
  if (anchorEnd) {
    const end = pieces[last];
    if (text.length - end.length < from || !text.endsWith(end)) return false;
    to = text.length - end.length;
    last -= 1;
  }
  for (let index = first; index <= last; index += 1) {
    const piece = pieces[index];
    if (piece === '') continue;
    const at = text.indexOf(piece, from);
    if (at < 0 || at + piece.length > to) return false;
    from = at + piece.length;
  }
  return true;
}
