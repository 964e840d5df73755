// The prose of a Markdown text: code (fenced and indented blocks, inline code spans) blanked out, every
// other character kept at its offset. GitLab's reference filters skip `code` and `pre` elements, so a
// `#12` or a SHA inside code links nothing, mentions no one and leaves no "mentioned in" note; the
// scanners that look for references before rendering (references.ts, cross-reference notes, mention
// mail) read this instead of the raw text. A line scan and one pass over backtick runs: linear in the
// text, whatever it holds (a regular expression with a lazy body and a backreference is not).

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const LIST_ITEM = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
const INDENTED = /^(?: {4}|\t| {0,3}\t)/;

function blank(text: string): string {
  return text.replace(/[^\n]/g, ' ');
}

/** CommonMark code spans: a run of n backticks up to the next run of exactly n, blanked. */
export function withoutCodeSpans(text: string): string {
  const runs: Array<{ start: number; length: number }> = [];
  for (let at = 0; at < text.length; at += 1) {
    if (text.charCodeAt(at) !== 96) continue;
    let end = at;
    while (end < text.length && text.charCodeAt(end) === 96) end += 1;
    // A backslash before a run escapes its first backtick (outside a span, where this scan is).
    const escaped = at > 0 && text.charCodeAt(at - 1) === 92;
    if (end - at - (escaped ? 1 : 0) > 0) runs.push({ start: escaped ? at + 1 : at, length: end - at - (escaped ? 1 : 0) });
    at = end - 1;
  }
  if (runs.length < 2) return text;
  // For each run, the next run of the same length: a closer found without rescanning.
  const next = new Array<number>(runs.length).fill(-1);
  const lastOfLength = new Map<number, number>();
  for (let index = runs.length - 1; index >= 0; index -= 1) {
    next[index] = lastOfLength.get(runs[index].length) ?? -1;
    lastOfLength.set(runs[index].length, index);
  }
  let out = '';
  let copied = 0;
  for (let index = 0; index < runs.length; ) {
    const closer = next[index];
    if (closer < 0) {
      index += 1;
      continue;
    }
    const from = runs[index].start;
    const to = runs[closer].start + runs[closer].length;
    out += text.slice(copied, from) + blank(text.slice(from, to));
    copied = to;
    index = closer + 1;
  }
  return out + text.slice(copied);
}

/** The text with its code blanked (see the file's comment). */
export function proseOnly(text: string): string {
  if (!/`|~~~|^ {4}|^\t|\n {4}|\n\t/.test(text)) return text;
  const lines = text.split('\n');
  const out: string[] = [];
  let paragraph: string[] = [];
  let fence: { char: string; length: number } | null = null;
  let inParagraph = false;
  let inList = false;
  const flush = () => {
    if (paragraph.length) out.push(withoutCodeSpans(paragraph.join('\n')));
    paragraph = [];
  };
  for (const line of lines) {
    if (fence) {
      const close = FENCE_OPEN.exec(line);
      if (close && close[1][0] === fence.char && close[1].length >= fence.length && close[2].trim() === '') fence = null;
      out.push(blank(line));
      continue;
    }
    const open = FENCE_OPEN.exec(line);
    if (open && !(open[1][0] === '`' && open[2].includes('`'))) {
      flush();
      fence = { char: open[1][0], length: open[1].length };
      inParagraph = false;
      out.push(blank(line));
      continue;
    }
    if (line.trim() === '') {
      flush();
      inParagraph = false;
      out.push(line);
      continue;
    }
    // An indented line is code unless it continues a paragraph or a list item's content.
    if (INDENTED.test(line) && !inParagraph && !inList) {
      flush();
      out.push(blank(line));
      continue;
    }
    if (!INDENTED.test(line)) inList = LIST_ITEM.test(line);
    inParagraph = true;
    paragraph.push(line);
  }
  flush();
  return out.join('\n');
}
