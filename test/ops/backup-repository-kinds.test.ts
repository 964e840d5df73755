// `kiln admin backup` and `kiln admin restore` of every kind of repository Kiln keeps, not only a
// project's own: a fork (whose objects are hard links to its upstream's), a project wiki
// (`….wiki.git`), a snippet (`@snippets/…`) and a group wiki (`@groups/…`). Each clones from the
// restored instance with the commits it had.
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitCommands } from '../helpers/git.js';
import { apiCall, startKilnProcess, type KilnProcess } from '../clients/helpers/server.js';
import { childDatabaseEnv, runKiln } from '../platform/process-helpers.js';
import { backupWorkspace } from './helpers.js';

describe('kiln admin backup and restore of forks, wikis and snippets', () => {
  const space = backupWorkspace('kiln-backup-kinds-');
  const git = gitCommands(() => space.work);

  it('restores each one, cloneable with its history', { timeout: 240_000 }, async () => {
    const env = childDatabaseEnv(space.testDb);
    const source: KilnProcess = await startKilnProcess({ dataDir: space.testDb.dataDir, env });
    let restoredNode: KilnProcess | null = null;
    try {
      const auth = `root:${source.rootToken}`;
      const urlOf = (node: KilnProcess, path: string) => `http://${auth}@127.0.0.1:${node.port}/${path}`;
      const project = await apiCall(source, 'POST', '/projects', { name: 'upstream', initialize_with_readme: false });
      const checkout = join(space.work, 'checkout');
      await git.ok(['init', '-q', '-b', 'main', 'checkout']);
      writeFileSync(join(checkout, 'file.txt'), 'upstream\n');
      await git.ok(['add', 'file.txt'], checkout);
      await git.ok(['commit', '-q', '-m', 'upstream commit'], checkout);
      await git.ok(['push', '-q', urlOf(source, 'root/upstream.git'), 'HEAD:main'], checkout);

      const fork = await apiCall(source, 'POST', `/projects/${project.id}/fork`, { name: 'downstream', path: 'downstream' });
      expect(fork.forked_from_project.id).toBe(project.id);
      writeFileSync(join(checkout, 'file.txt'), 'fork\n');
      await git.ok(['commit', '-q', '-am', 'fork commit'], checkout);
      await git.ok(['push', '-q', urlOf(source, 'root/downstream.git'), 'HEAD:main'], checkout);
      const forkHead = (await git.ok(['rev-parse', 'HEAD'], checkout)).trim();

      await apiCall(source, 'POST', `/projects/${project.id}/wikis`, { title: 'Home', content: 'the project wiki, backed up' });
      const snippet = await apiCall(source, 'POST', '/snippets', { title: 'kept', visibility: 'private', files: [{ file_path: 'a.txt', content: 'snippet file a' }, { file_path: 'b.txt', content: 'snippet file b' }] });
      const group = await apiCall(source, 'POST', '/groups', { name: 'wiki-group', path: 'wiki-group' });
      await apiCall(source, 'POST', `/groups/${group.id}/wikis`, { title: 'Home', content: 'the group wiki, backed up' });

      const backupDir = join(space.work, 'backup');
      const backup = await runKiln(['admin', 'backup', backupDir], { KILN_DATA_DIR: space.testDb.dataDir, ...env });
      expect({ code: backup.code, stderr: backup.stderr }).toEqual({ code: 0, stderr: '' });
      await source.stop();

      const restoredDir = join(space.work, 'restored');
      const restoreEnv = await space.restoreEnv();
      const restored = await runKiln(['admin', 'restore', backupDir], { KILN_DATA_DIR: restoredDir, ...restoreEnv });
      expect({ code: restored.code, stderr: restored.stderr }).toEqual({ code: 0, stderr: '' });
      expect(restored.stdout).toMatch(/and 5 repositories from /);
      restoredNode = await startKilnProcess({ dataDir: restoredDir, env: restoreEnv, rootToken: source.rootToken });

      const cloned = async (path: string, name: string) => {
        const into = join(space.work, name);
        await git.ok(['clone', '-q', urlOf(restoredNode!, path), into]);
        await git.ok(['fsck', '--no-progress'], into);
        return into;
      };
      const forkClone = await cloned('root/downstream.git', 'fork-clone');
      expect((await git.ok(['rev-parse', 'HEAD'], forkClone)).trim()).toBe(forkHead);
      expect((await git.ok(['log', '--format=%s'], forkClone)).trim().split('\n')).toEqual(['fork commit', 'upstream commit']);
      await cloned('root/upstream.git', 'upstream-clone');
      expect(await git.ok(['show', 'HEAD:Home.md'], await cloned('root/upstream.wiki.git', 'wiki-clone'))).toBe('the project wiki, backed up');
      const snippetClone = await cloned(`snippets/${snippet.id}.git`, 'snippet-clone');
      expect((await git.ok(['ls-files'], snippetClone)).trim().split('\n')).toEqual(['a.txt', 'b.txt']);
      expect(await git.ok(['show', 'HEAD:Home.md'], await cloned('wiki-group.wiki.git', 'group-wiki-clone'))).toBe('the group wiki, backed up');
    } finally {
      await restoredNode?.stop();
      await source.stop();
    }
  });
});
