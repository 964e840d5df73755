// One version everywhere: what `kiln --version` prints, package.json's version, the newest released
// entry of CHANGELOG.md (Keep a Changelog) and the newest release tag reachable from this commit.
// A clone without tags (CI checks out the branch alone) cannot show the last one: that check runs
// wherever release tags were fetched, and is reported as skipped elsewhere.
import { describe, expect, it } from 'vitest';
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runKiln } from '../platform/process-helpers.js';

const REPO = new URL('../..', import.meta.url).pathname;
const exec = promisify(execFile);

async function git(args: string[]): Promise<{ ok: boolean; out: string }> {
  try {
    return { ok: true, out: (await exec('git', args, { cwd: REPO })).stdout.trim() };
  } catch (error) {
    return { ok: false, out: String((error as { stderr?: string }).stderr ?? error).trim() };
  }
}

/** The version headings of CHANGELOG.md, newest first: `Unreleased`, then `x.y.z` with their dates. */
function changelogHeadings(): Array<{ version: string; date: string | null }> {
  const text = readFileSync(join(REPO, 'CHANGELOG.md'), 'utf8');
  return [...text.matchAll(/^## \[([^\]]+)\](?: - (\d{4}-\d\d-\d\d))?$/gm)].map((match) => ({ version: match[1], date: match[2] ?? null }));
}

/** Whether this clone holds any release tag at all (a branch-only clone has none). */
function hasReleaseTags(): boolean {
  try {
    return execFileSync('git', ['tag', '-l', 'v[0-9]*'], { cwd: REPO, encoding: 'utf8' }).trim() !== '';
  } catch {
    return false;
  }
}

describe('the release version', () => {
  it('kiln --version prints package.json\'s version', async () => {
    const printed = await runKiln(['--version']);
    const version = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version as string;
    expect(printed.stdout).toMatch(new RegExp(`^kiln ${version.replaceAll('.', '\\.')} \\(`));
  });

  it('CHANGELOG.md keeps an Unreleased section first, then released versions with dates, newest first', () => {
    const headings = changelogHeadings();
    expect(headings[0]).toEqual({ version: 'Unreleased', date: null });
    const released = headings.slice(1);
    expect(released.length).toBeGreaterThan(0);
    for (const heading of released) {
      expect(heading.version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(heading.date, heading.version).not.toBeNull();
    }
    const order = released.map((heading) => heading.version.split('.').map(Number));
    const sorted = [...order].sort((a, b) => b[0] - a[0] || b[1] - a[1] || b[2] - a[2]);
    expect(order).toEqual(sorted);
  });

  it('kiln --version and the newest CHANGELOG.md release agree', async () => {
    const version = /^kiln (\S+) /.exec((await runKiln(['--version'])).stdout)?.[1];
    expect(changelogHeadings()[1]?.version, 'the newest released version in CHANGELOG.md').toBe(version);
  });

  it.runIf(hasReleaseTags())('the newest release tag reachable from HEAD is that version, annotated', async () => {
    const version = /^kiln (\S+) /.exec((await runKiln(['--version'])).stdout)?.[1];
    const described = await git(['describe', '--tags', '--abbrev=0', '--match', 'v[0-9]*']);
    if (!described.ok) {
      const shallow = (await git(['rev-parse', '--is-shallow-repository'])).out;
      throw new Error(
        `no release tag (v*) is an ancestor of HEAD${shallow === 'true' ? ' (this clone is shallow: git fetch --tags --unshallow)' : ''}; ` +
          `a release commit is tagged with git tag -a v${version} (git said: ${described.out})`,
      );
    }
    expect(described.out, 'the newest release tag reachable from HEAD').toBe(`v${version}`);
    // Annotated, as the release procedure says: a lightweight tag carries no date or message.
    expect((await git(['cat-file', '-t', described.out])).out).toBe('tag');
  });
});
