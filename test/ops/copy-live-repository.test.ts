// The backup's repository copy while git rewrites the repository's packs under it: every copy is a
// whole repository (git fsck passes) whose refs point at commits the source had.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitCommands } from '../helpers/git.js';
import { copyLiveRepository } from '../../src/operations/copy-live-repository.js';

describe('copyLiveRepository', () => {
  let work: string;
  const git = gitCommands(() => work);
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'kiln-copy-'));
    await git.ok(['init', '-q', '--bare', 'source.git']);
    await git.ok(['init', '-q', 'checkout']);
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('copies a whole repository while commits are pushed and packs are rewritten (repack -a -d, pack-refs)', { timeout: 120_000 }, async () => {
    const source = join(work, 'source.git');
    const checkout = join(work, 'checkout');
    const pushed = new Set<string>();
    const push = async (i: number) => {
      writeFileSync(join(checkout, 'file.txt'), `${i}\n`.repeat(i + 1));
      await git.ok(['add', 'file.txt'], checkout);
      await git.ok(['commit', '-q', '-m', `commit ${i}`], checkout);
      await git.ok(['push', '-q', source, `HEAD:refs/heads/branch-${i % 5}`], checkout);
      pushed.add((await git.ok(['rev-parse', 'HEAD'], checkout)).trim());
    };
    for (let i = 0; i < 5; i += 1) await push(i);
    let busy = true;
    const writer = (async () => {
      for (let i = 5; busy; i += 1) {
        await push(i);
        await git.ok(['--git-dir', source, 'repack', '-q', '-a', '-d']);
        if (i % 3 === 0) await git.ok(['--git-dir', source, 'pack-refs', '--all']);
      }
    })();
    try {
      for (let round = 0; round < 6; round += 1) {
        const copy = join(work, `copy-${round}.git`);
        await copyLiveRepository(source, copy);
        await git.ok(['--git-dir', copy, 'fsck', '--no-progress']);
        const refs = (await git.ok(['--git-dir', copy, 'for-each-ref', '--format=%(objectname)'])).trim().split('\n');
        expect(refs.length).toBe(5);
        for (const oid of refs) expect(pushed.has(oid)).toBe(true);
      }
    } finally {
      busy = false;
      await writer;
    }
  });

  it('refuses a directory that is not a repository', async () => {
    await expect(copyLiveRepository(join(work, 'missing.git'), join(work, 'nowhere.git'))).rejects.toThrow('is not a git repository');
  });
});
