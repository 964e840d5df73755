// A backup's bundle is of the refs as they were read, whatever pushes do while git writes it
// (src/operations/repository-bundles.ts): the refs read once go into a scratch repository that
// borrows the live one's objects, and the bundle is made from there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleRefs, restoreBundle } from '../../src/operations/repository-bundles.js';
import { listRefs } from '../../src/repositories/git.js';

let work: string;
const ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@x' };
const gitIn = (cwd: string, args: string[]) => execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8' }).trim();

/** Commits `text` in the checkout and pushes it to `branch` of the bare repository; the commit's id. */
function push(checkout: string, bare: string, branch: string, text: string): string {
  writeFileSync(join(checkout, 'file.txt'), `${text}\n`);
  gitIn(checkout, ['add', 'file.txt']);
  gitIn(checkout, ['commit', '-q', '-m', text]);
  gitIn(checkout, ['push', '-q', bare, `HEAD:${branch}`]);
  return gitIn(checkout, ['rev-parse', 'HEAD']);
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'kiln-bundles-'));
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('bundleRefs', () => {
  it('writes the refs it was given, not the ones pushed since, and a restore brings back exactly those', async () => {
    const source = join(work, 'source.git');
    gitIn(work, ['init', '-q', '--bare', '--initial-branch=main', source]);
    const checkout = join(work, 'checkout');
    gitIn(work, ['init', '-q', '--initial-branch=main', checkout]);
    const first = push(checkout, source, 'main', 'first');
    gitIn(checkout, ['tag', '-a', '-m', 'release', 'v1']);
    gitIn(checkout, ['push', '-q', source, 'v1']);
    const read = await listRefs(source);

    // Pushes after the refs were read: main moves on and a branch appears.
    const later = push(checkout, source, 'main', 'later');
    push(checkout, source, 'topic', 'topic');

    const bundle = join(work, 'backup', 'source.bundle');
    mkdirSync(join(work, 'backup'));
    await bundleRefs(source, read, 'refs/heads/main', bundle);
    const heads = gitIn(work, ['bundle', 'list-heads', bundle]).split('\n').sort();
    expect(heads).toEqual([...[...read].map(([ref, id]) => `${id} ${ref}`), `${first} HEAD`].sort());
    expect(heads.join('\n')).not.toContain(later);
    // The scratch repository beside the bundle is gone.
    expect(readdirSync(join(work, 'backup'))).toEqual(['source.bundle']);

    const restored = join(work, 'restored.git');
    await restoreBundle(bundle, restored, 'refs/heads/main');
    expect(await listRefs(restored)).toEqual(read);
    expect(gitIn(work, ['--git-dir', restored, 'symbolic-ref', 'HEAD'])).toBe('refs/heads/main');
  });
});
