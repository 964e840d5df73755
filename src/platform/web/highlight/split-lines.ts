// highlight.js answers one HTML string for a whole text, with spans that may run over several lines
// (a block comment, a template string). Pages show code line by line (numbers, anchors, diffs), so
// the markup is cut at each line break and every span open there is closed and opened again.

const TOKEN = /<span[^>]*>|<\/span>|\n/g;

/** Pure: one balanced HTML string per line of the highlighted text. */
export function splitHighlightedLines(markup: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let current = '';
  let last = 0;
  for (const match of markup.matchAll(TOKEN)) {
    current += markup.slice(last, match.index);
    last = match.index + match[0].length;
    if (match[0] === '\n') {
      lines.push(current + '</span>'.repeat(open.length));
      current = open.join('');
    } else if (match[0] === '</span>') {
      open.pop();
      current += match[0];
    } else {
      open.push(match[0]);
      current += match[0];
    }
  }
  lines.push(current + markup.slice(last));
  return lines;
}
