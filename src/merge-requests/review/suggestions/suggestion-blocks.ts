// The ```suggestion blocks of a diff note (GitLab's Gitlab::Diff::SuggestionsParser): fenced code
// blocks whose info string is `suggestion`, optionally `suggestion:-N+M` for N lines above and M
// below the commented line (params `^(-(\d+))?(\+(\d+))?$`). The block's text replaces those lines;
// an empty block deletes them. Read line by line with CommonMark's fence rules (a fence of 3+
// backticks or tildes, closed by at least as many of the same), in linear time.

export interface SuggestionBlock {
  /** The replacement, each line ending in a newline (empty: the lines are removed). */
  text: string;
  above: number;
  below: number;
}

/** At most this many suggestions are read from one note. */
export const MAX_SUGGESTIONS = 100;
const OPEN = /^( {0,3})(`{3,}|~{3,})([^\n]*)$/;
const PARAMS = /^(?:-(\d{1,6}))?(?:\+(\d{1,6}))?$/;

function suggestionInfo(info: string): { above: number; below: number } | null {
  const word = info.trim().split(/\s+/, 1)[0] ?? '';
  if (word === 'suggestion') return { above: 0, below: 0 };
  if (!word.startsWith('suggestion:')) return null;
  const params = PARAMS.exec(word.slice('suggestion:'.length));
  return params ? { above: Number(params[1] ?? 0), below: Number(params[2] ?? 0) } : { above: 0, below: 0 };
}

export function suggestionBlocks(body: string): SuggestionBlock[] {
  const lines = body.replace(/\r\n?/g, '\n').split('\n');
  const blocks: SuggestionBlock[] = [];
  for (let index = 0; index < lines.length && blocks.length < MAX_SUGGESTIONS; index += 1) {
    const open = OPEN.exec(lines[index]);
    if (!open) continue;
    const [, indent, fence, info] = open;
    if (fence[0] === '`' && info.includes('`')) continue;
    const content: string[] = [];
    let cursor = index + 1;
    for (; cursor < lines.length; cursor += 1) {
      const line = lines[cursor];
      const close = /^ {0,3}(`+|~+)[ \t]*$/.exec(line);
      if (close && close[1][0] === fence[0] && close[1].length >= fence.length) break;
      // Content loses up to the opening fence's indentation.
      let strip = 0;
      while (strip < indent.length && line[strip] === ' ') strip += 1;
      content.push(line.slice(strip));
    }
    // An unclosed fence runs to the end of the text; a trailing empty line is the text's last newline.
    if (cursor >= lines.length && content.length && content[content.length - 1] === '') content.pop();
    const params = suggestionInfo(info);
    if (params) blocks.push({ text: content.map((line) => `${line}\n`).join(''), ...params });
    index = cursor;
  }
  return blocks;
}
