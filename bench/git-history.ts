// A repository with a long history, written in one `git fast-import` process (hundreds of commits in
// a second or two, where a `git commit` per change would take minutes): the repository pages' bench
// and their Chromium journey read it. Its shape is what the pages' goals name: a big file that every
// commit changes a slice of (so its blame has a commit per slice), a wide folder whose entries were
// last changed by different commits (so the tree page's "last commit" walk goes far back), a few
// ordinary files, branches and tags.
import { spawn } from 'node:child_process';

export interface HistoryShape {
  /** Commits on main (the first creates every file). */
  commits: number;
  /** Lines of `src/big.ts`; commit k rewrites the lines i with i % commits === k. */
  bigFileLines: number;
  /** Files in `wide/`; commit k rewrites the files j with j % commits === k. */
  wideEntries: number;
  /** Branches from main's commit `from` (1-based), each with `commits` of its own changing `src/app.ts`. */
  branches?: { name: string; from: number; commits: number }[];
  /** Tags on main's commit `at`; annotated when a message is given. */
  tags?: { name: string; at: number; message?: string }[];
  /** Extra files of the first commit, by path. */
  files?: Record<string, string>;
}

const EPOCH = 1_700_000_000;
const AUTHORS = ['Ada Lovelace <ada@example.com>', 'Grace Hopper <grace@example.com>', 'Linus Pauling <linus@example.com>'];

export const bigLine = (line: number, version: number) => `export const value${line} = ${version};`;
export const wideName = (index: number) => `wide/entry-${String(index).padStart(4, '0')}.txt`;

function data(text: string): string {
  return `data ${Buffer.byteLength(text)}\n${text}\n`;
}

/** The fast-import stream of `shape` (pure). */
export function historyStream(shape: HistoryShape): string {
  const out: string[] = [];
  const big = Array.from({ length: shape.bigFileLines }, (_, line) => bigLine(line, 0));
  const who = (k: number, seconds: number) => `${AUTHORS[k % AUTHORS.length]} ${seconds} +0000`;
  const commit = (ref: string, mark: number, k: number, message: string, from: number | null, changes: [string, string][]) => {
    const seconds = EPOCH + mark * 60;
    out.push(`commit ${ref}\nmark :${mark}\nauthor ${who(k, seconds)}\ncommitter ${who(k, seconds)}\n${data(message)}`);
    if (from !== null) out.push(`from :${from}\n`);
    for (const [path, content] of changes) out.push(`M 100644 inline ${path}\n${data(content)}`);
    out.push('\n');
  };
  for (let k = 0; k < shape.commits; k += 1) {
    const changes: [string, string][] = [];
    if (k === 0) {
      for (const [path, content] of Object.entries(shape.files ?? {})) changes.push([path, content]);
      changes.push(['src/app.ts', 'export const app = 0;\n']);
      for (let j = 0; j < shape.wideEntries; j += 1) changes.push([wideName(j), 'version 0\n']);
    } else {
      for (let line = k; line < shape.bigFileLines; line += shape.commits) big[line] = bigLine(line, k);
      for (let j = k; j < shape.wideEntries; j += shape.commits) changes.push([wideName(j), `version ${k}\n`]);
    }
    changes.push(['src/big.ts', `${big.join('\n')}\n`]);
    commit('refs/heads/main', k + 1, k, k === 0 ? 'Start the project' : `Change slice ${k} of the values`, k === 0 ? null : k, changes);
  }
  let mark = shape.commits;
  for (const branch of shape.branches ?? []) {
    for (let c = 0; c < branch.commits; c += 1) {
      mark += 1;
      commit(`refs/heads/${branch.name}`, mark, c, `${branch.name}: change ${c + 1}`, c === 0 ? branch.from : mark - 1, [['src/app.ts', `export const app = ${JSON.stringify(`${branch.name} ${c + 1}`)};\n`]]);
    }
  }
  for (const tag of shape.tags ?? []) {
    if (tag.message === undefined) out.push(`reset refs/tags/${tag.name}\nfrom :${tag.at}\n\n`);
    else out.push(`tag ${tag.name}\nfrom :${tag.at}\ntagger ${who(0, EPOCH + tag.at * 60)}\n${data(tag.message)}`);
  }
  return out.join('');
}

/** Write `shape` into the repository at `gitDir` (bare or a work tree's .git) with one fast-import. */
export function writeHistory(gitDir: string, shape: HistoryShape): Promise<void> {
  return fastImport(gitDir, historyStream(shape));
}

/** Feed a fast-import stream to the repository at `gitDir`. */
export function fastImport(gitDir: string, stream: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['--git-dir', gitDir, 'fast-import', '--quiet'], { stdio: ['pipe', 'ignore', 'pipe'], env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1' } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git fast-import exited ${code}: ${stderr}`))));
    child.stdin.end(stream);
  });
}
