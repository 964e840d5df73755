// The command lines of the README and docs/: fenced code blocks, and the commands in them (a command
// continued with a trailing backslash is one), so tests can check and run them as written.

export interface FencedBlock {
  /** The info string after the opening fence (`sh`, `console`, … or ''). */
  info: string;
  text: string;
  /** The 1-based line of the opening fence. */
  line: number;
}

export function fencedBlocks(markdown: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const open = /^(\s*)(```+)(.*)$/.exec(lines[index]);
    if (!open) continue;
    const body: string[] = [];
    let end = index + 1;
    // The closing fence has the same indentation (a block inside a list item is indented).
    while (end < lines.length && lines[end].trim() !== open[2]) {
      body.push(lines[end].slice(open[1].length));
      end += 1;
    }
    blocks.push({ info: open[3].trim(), text: body.join('\n'), line: index + 1 });
    index = end;
  }
  return blocks;
}

/** The commands of a shell block: continuation lines joined, blank and comment-only lines left out. */
export function commandsOf(text: string): string[] {
  const commands: string[] = [];
  let current = '';
  for (const line of text.split('\n')) {
    if (current === '' && (line.trim() === '' || line.trim().startsWith('#'))) continue;
    current += current === '' ? line : `\n${line}`;
    if (!line.endsWith('\\')) {
      commands.push(current);
      current = '';
    }
  }
  if (current !== '') commands.push(current);
  return commands;
}

/** The inline code spans of markdown prose (outside fenced blocks). */
export function inlineCode(markdown: string): string[] {
  const prose = markdown.replace(/^(\s*)(```+)[^\n]*\n[\s\S]*?\n\1\2[ \t]*$/gm, '');
  return [...prose.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]);
}
