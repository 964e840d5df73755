// A backup's bundle is of the refs as they were read, whatever pushes do while git writes it
// (src/operations/repository-bundles.ts): the refs read once go into a scratch repository that
// borrows the live one's objects, and the bundle is made from there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitCommands } from '../helpers/git.js';
import { bundleRefs, restoreBundle } from '../../src/operations/repository-bundles.js';
import { listRefs } from '../../src/repositories/git.js';

let work: string;
const git = gitCommands(() => work);

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'kiln-bundles-'));
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('bundleRefs', () => {
  it('writes the refs it was given and their HEAD, not the ones pushed since, and a restore brings back exactly those', async () => {
    const source = join(work, 'source.git');
    await git.ok(['init', '-q', '--bare', source]);
    const checkout = join(work, 'checkout');
    await git.ok(['init', '-q', checkout]);
    /** Commits `text` and pushes it to `branch` of the source; the commit's id. */
    const push = async (branch: string, text: string) => {
      writeFileSync(join(checkout, 'file.txt'), `${text}\n`);
      await git.ok(['add', 'file.txt'], checkout);
      await git.ok(['commit', '-q', '-m', text], checkout);
      await git.ok(['push', '-q', source, `HEAD:${branch}`], checkout);
      return (await git.ok(['rev-parse', 'HEAD'], checkout)).trim();
    };
    await push('main', 'first');
    await git.ok(['tag', '-a', '-m', 'release', 'v1'], checkout);
    await git.ok(['push', '-q', source, 'v1'], checkout);
    const release = await push('release', 'release');
    const read = await listRefs(source);

    // Pushes after the refs were read: main moves on and a branch appears.
    const later = await push('main', 'later');
    await push('topic', 'topic');

    mkdirSync(join(work, 'backup'));
    const bundle = join(work, 'backup', 'source.bundle');
    await bundleRefs(source, read, 'refs/heads/release', bundle);
    const heads = (await git.ok(['bundle', 'list-heads', bundle])).trim().split('\n').sort();
    // HEAD is the branch given (release), not main, the scratch repository's default.
    expect(heads).toEqual([...[...read].map(([ref, id]) => `${id} ${ref}`), `${release} HEAD`].sort());
    expect(heads.join('\n')).not.toContain(later);
    // The scratch repository beside the bundle is gone.
    expect(readdirSync(join(work, 'backup'))).toEqual(['source.bundle']);

    const restored = join(work, 'restored.git');
    await restoreBundle(bundle, restored, 'refs/heads/release');
    expect(await listRefs(restored)).toEqual(read);
    expect((await git.ok(['--git-dir', restored, 'symbolic-ref', 'HEAD'])).trim()).toBe('refs/heads/release');
  });
});
