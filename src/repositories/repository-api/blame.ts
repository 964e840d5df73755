// `git blame --porcelain` read into GitLab's blame ranges (Gitlab::Blame#groups): consecutive lines
// of the same commit form one range.

export interface BlameGroup {
  commitId: string;
  lines: string[];
}

/** Pure: the porcelain output (a header line per line, `\t`-prefixed content) grouped by commit. */
export function parseBlame(output: string): BlameGroup[] {
  const groups: BlameGroup[] = [];
  let current: string | null = null;
  for (const line of output.split('\n')) {
    if (line.startsWith('\t')) {
      if (current === null) continue;
      const last = groups[groups.length - 1];
      if (last && last.commitId === current) last.lines.push(line.slice(1));
      else groups.push({ commitId: current, lines: [line.slice(1)] });
      continue;
    }
    const header = /^([0-9a-f]{40}) \d+ \d+/.exec(line);
    if (header) current = header[1];
  }
  return groups;
}
