// The `kiln` commands in README.md and docs/ work as written on a fresh clone after `npm install`:
// there is no `kiln` on PATH then, so a command line says `npx kiln …` (npm runs the checkout's own
// bin entry) or `node …bin/kiln.js …`, and `npx kiln` does run from the repository root.
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { fencedBlocks, inlineCode } from '../helpers/markdown-commands.js';
import { GITLAB_COMPAT_VERSION, KILN_VERSION } from '../../src/platform/version.js';

const REPO = new URL('../..', import.meta.url).pathname;
/** `kiln <subcommand>` not written as `npx kiln` or a path to bin/kiln.js. */
const BARE_KILN = /(?<![\w/.-])(?<!npx )kiln (serve|worker|migrate|admin|--version|--help)\b/;

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? markdownFiles(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : [],
  );
}

const documents = [join(REPO, 'README.md'), ...markdownFiles(join(REPO, 'docs'))];

describe('the kiln command lines of README.md and docs/', () => {
  it('every code block writes `npx kiln …` (or node bin/kiln.js), never a bare `kiln …`', () => {
    const bare: string[] = [];
    for (const file of documents) {
      for (const block of fencedBlocks(readFileSync(file, 'utf8'))) {
        block.text.split('\n').forEach((line, index) => {
          if (BARE_KILN.test(line)) bare.push(`${relative(REPO, file)}:${block.line + 1 + index}: ${line.trim()}`);
        });
      }
    }
    expect(bare).toEqual([]);
  });

  it('the instructions of README.md and docs/operations/ write `npx kiln …` in prose too', () => {
    const operatorDocs = documents.filter((file) => file === join(REPO, 'README.md') || file.startsWith(join(REPO, 'docs', 'operations')));
    expect(operatorDocs.length).toBeGreaterThan(5);
    const bare = operatorDocs.flatMap((file) => inlineCode(readFileSync(file, 'utf8')).filter((code) => BARE_KILN.test(code)).map((code) => `${relative(REPO, file)}: \`${code}\``));
    expect(bare).toEqual([]);
  });

  it('the README shows both one-line starts', () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm install && npm test');
  });

  it('`npx kiln --version` runs from the repository root without a global install', { timeout: 180_000 }, async () => {
    // Only node's own directory on PATH: no globally installed or linked `kiln` can answer. (npm test
    // builds first; run alone after a change, bin/kiln.js builds here, hence the long timeout.)
    const nodeDir = process.execPath.slice(0, process.execPath.lastIndexOf('/'));
    const { stdout } = await promisify(execFile)('npx', ['--offline', 'kiln', '--version'], { cwd: REPO, env: { PATH: `${nodeDir}:/usr/bin:/bin`, HOME: process.env.HOME ?? '/tmp' } });
    expect(stdout).toBe(`kiln ${KILN_VERSION} (GitLab API v4, as GitLab ${GITLAB_COMPAT_VERSION})\n`);
  });
});
