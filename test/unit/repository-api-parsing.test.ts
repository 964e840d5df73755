// The pure parts of the repository API: git object and output parsers, GitLab's name and path
// rules, the commit action planner, and archive naming. Table-driven where the rule is a table.
import { describe, expect, it } from 'vitest';
import { fullTitle, gitlabTime, parseCommitObject, parseSignature, parseTagObject, parseTrailers } from '../../src/repositories/repository-api/git-objects.js';
import { isHexBranchName, isValidRefName } from '../../src/repositories/repository-api/ref-names.js';
import { cleanRepositoryPath, isValidFilePath, parseLsTree } from '../../src/repositories/repository-api/tree-entries.js';
import { fileDiffs, parseNumstat, parseRawDiff, splitPatches } from '../../src/repositories/repository-api/diffs.js';
import { parseBlame, parseBlameRuns } from '../../src/repositories/repository-api/blame.js';
import { cleanActionPath, planActions } from '../../src/repositories/repository-api/file-actions.js';
import { compareVersions, matchesSearch } from '../../src/repositories/repository-api/ref-filters.js';
import { archiveExtension, archivePathspecs, archivePrefix } from '../../src/repositories/repository-api/archive.js';
import { isSafeObjectName } from '../../src/repositories/repository-api/object-reader.js';
import { RepositoryApiError } from '../../src/repositories/repository-api/errors.js';
import type { TreeEntry } from '../../src/repositories/repository-api/tree-entries.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

describe('git objects', () => {
  it('parses a signature, names with spaces and odd characters included', () => {
    expect(parseSignature('Jane Q. Doe <jane@example.com> 1700000000 +0130')).toEqual({ name: 'Jane Q. Doe', email: 'jane@example.com', seconds: 1700000000, offset: '+0130' });
    expect(parseSignature('<nobody@example.com> 5 -0000')).toEqual({ name: '', email: 'nobody@example.com', seconds: 5, offset: '-0000' });
  });

  it.each([
    ['+0000', '2023-11-14T22:13:20.000+00:00'],
    ['+0130', '2023-11-14T23:43:20.000+01:30'],
    ['-0800', '2023-11-14T14:13:20.000-08:00'],
  ])('writes dates in the signer’s offset %s as GitLab does', (offset, expected) => {
    expect(gitlabTime({ name: '', email: '', seconds: 1700000000, offset })).toBe(expected);
  });

  it('parses a commit with parents, a signature header and a message kept byte for byte', () => {
    const raw = Buffer.from(
      `tree ${B}\nparent ${A}\nparent ${B}\nauthor A U <a@x> 1700000000 +0100\ncommitter C O <c@x> 1700000100 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n line\n -----END PGP SIGNATURE-----\n\nTitle line  \n\nBody\n`,
    );
    const commit = parseCommitObject(A, raw);
    expect(commit.parents).toEqual([A, B]);
    expect(commit.author).toEqual({ name: 'A U', email: 'a@x', seconds: 1700000000, offset: '+0100' });
    expect(commit.committer.seconds).toBe(1700000100);
    expect(commit.message).toBe('Title line  \n\nBody\n');
    expect(fullTitle(commit.message)).toBe('Title line');
  });

  it('parses an annotated tag without its signature block', () => {
    const tag = parseTagObject(B, Buffer.from(`object ${A}\ntype commit\ntag v1.0\ntagger T <t@x> 1700000000 +0000\n\nRelease\n-----BEGIN PGP SIGNATURE-----\nxyz\n`));
    expect(tag).toMatchObject({ object: A, type: 'commit', name: 'v1.0', message: 'Release\n' });
    expect(tag.tagger?.email).toBe('t@x');
  });

  it.each([
    ['Title\n\nBody\n\nSigned-off-by: A <a@x>\nReviewed-by: B\n', { 'Signed-off-by': 'A <a@x>', 'Reviewed-by': 'B' }],
    ['Title only\n', {}],
    ['Title\n\nNot: a trailer\nbecause this line is prose\n', {}],
  ])('reads the trailers of %j', (message, expected) => {
    expect(parseTrailers(message)).toEqual(expected);
  });
});

describe('cat-file --batch names', () => {
  it.each([['main', true], ['main\nHEAD', false], ['a\0b', false], ['', false]])('accepts %j as a batch name: %s', (name, safe) => {
    expect(isSafeObjectName(name)).toBe(safe);
  });
});

describe('ref names (Gitlab::GitRefValidator)', () => {
  it.each([
    ['main', true], ['feature/x.y', true], ['release-1.0', true], ['v1.0.0', true], ['a/b/c', true],
    ['', false], ['HEAD', false], ['-x', false], ['refs/heads/main', false], ['refs/tags/v1', false], ['a..b', false],
    ['a b', false], ['a~1', false], ['a^', false], ['a:b', false], ['a?', false], ['a*', false], ['a[', false], ['a\\b', false],
    ['/a', false], ['a/', false], ['a//b', false], ['a.', false], ['.a', false], ['a/.b', false], ['a.lock', false], ['a/b.lock/c', false],
    ['a@{1}', false], ['@', false], ['tab\tname', false],
  ])('%j is %s', (name, valid) => {
    expect(isValidRefName(name)).toBe(valid);
  });

  it.each([[A, true], [`${A}/x`, true], [`${A}-/x`, true], [`${A}x`, false], ['abc', false]])('%j is a 40-hex branch name: %s', (name, hex) => {
    expect(isHexBranchName(name)).toBe(hex);
  });
});

describe('paths', () => {
  it.each([
    ['', ''], ['/', ''], ['docs', 'docs'], ['docs/', 'docs'], ['/docs/guide/', 'docs/guide'],
    ['..', null], ['a/../b', null], ['./a', null], ['a//b', null],
  ])('the tree path %j is %j', (path, clean) => {
    expect(cleanRepositoryPath(path)).toBe(clean);
  });

  it.each([
    ['README.md', true], ['dir/file.txt', true], ['a..b', true], ['...', true],
    ['../etc/passwd', false], ['a/../../b', false], ['/etc/passwd', false], ['%2e%2e/x', false], ['a\\..\\b', false], ['', false],
  ])('the file_path %j is valid: %s', (path, valid) => {
    expect(isValidFilePath(path)).toBe(valid);
  });

  it.each([
    ['a/./b', 'a/b'], ['/a', 'a'], ['a/b/../c', 'a/c'],
  ])('a commit action path %j is cleaned to %j', (path, clean) => {
    expect(cleanActionPath(path)).toBe(clean);
  });

  it.each([
    ['', 'You must provide a file path'], ['.', 'You must provide a file path'], ['../x', 'Path cannot include directory traversal'],
    ['a/../../x', 'Path cannot include directory traversal'], ['a//b', "invalid path: 'a//b'"], ['.git/config', "invalid path: '.git/config'"],
    ['x/.GIT/hooks', "invalid path: 'x/.GIT/hooks'"],
  ])('a commit action path %j is refused with %j', (path, message) => {
    expect(() => cleanActionPath(path)).toThrow(message);
  });
});

describe('ls-tree, diff and blame output', () => {
  it('reads ls-tree -z entries with paths under a prefix', () => {
    const output = `040000 tree ${A}\tdocs\u0000100755 blob ${B}\trun me.sh\u0000160000 commit ${A}\tvendor/lib\u0000`;
    expect(parseLsTree(output, 'top/')).toEqual([
      { mode: '040000', type: 'tree', id: A, path: 'top/docs' },
      { mode: '100755', type: 'blob', id: B, path: 'top/run me.sh' },
      { mode: '160000', type: 'commit', id: A, path: 'top/vendor/lib' },
    ]);
  });

  it('pairs raw changes with their patches: added, renamed, deleted, mode-only', () => {
    const raw = [
      `:000000 100644 ${'0'.repeat(40)} ${A} A`, 'new.txt',
      `:100644 100644 ${A} ${A} R100`, 'old name.txt', 'new name.txt',
      `:100644 000000 ${A} ${'0'.repeat(40)} D`, 'gone.txt',
      `:100644 100755 ${A} ${A} M`, 'run.sh', '',
    ].join('\0');
    const patch = [
      'diff --git a/new.txt b/new.txt', 'new file mode 100644', 'index 0000000..aaaaaaa', '--- /dev/null', '+++ b/new.txt', '@@ -0,0 +1 @@', '+hello',
      'diff --git a/old name.txt b/new name.txt', 'similarity index 100%', 'rename from old name.txt', 'rename to new name.txt',
      'diff --git a/gone.txt b/gone.txt', 'deleted file mode 100644', '--- a/gone.txt', '+++ /dev/null', '@@ -1 +0,0 @@', '-bye',
      'diff --git a/run.sh b/run.sh', 'old mode 100644', 'new mode 100755', '',
    ].join('\n');
    const diffs = fileDiffs(raw, patch);
    expect(diffs.map((diff) => [diff.old_path, diff.new_path, diff.a_mode, diff.b_mode, diff.new_file, diff.renamed_file, diff.deleted_file, diff.diff])).toEqual([
      ['new.txt', 'new.txt', '0', '100644', true, false, false, '@@ -0,0 +1 @@\n+hello\n'],
      ['old name.txt', 'new name.txt', '100644', '100644', false, true, false, ''],
      ['gone.txt', 'gone.txt', '100644', '0', false, false, true, '@@ -1 +0,0 @@\n-bye\n'],
      ['run.sh', 'run.sh', '100644', '100755', false, false, false, ''],
    ]);
    expect(fileDiffs(raw, patch, true)[0].diff).toBe('--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+hello\n');
    expect(parseRawDiff('')).toEqual([]);
    expect(splitPatches('')).toEqual([]);
  });

  it('sums numstat lines, binary files as nothing, renames included', () => {
    expect(parseNumstat('3\t1\ta.txt\u0000-\t-\tbin.png\u00002\t0\t\u0000old\u0000new\u0000')).toEqual({ additions: 5, deletions: 1, total: 6 });
  });

  it('groups consecutive blame lines of one commit', () => {
    const output = [
      `${A} 1 1 2`, 'author A', 'filename f', '\tone', `${A} 2 2`, '\ttwo', `${B} 3 3 1`, 'author B', 'filename f', '\tthree', `${A} 4 4 1`, '\tfour', '',
    ].join('\n');
    expect(parseBlame(output)).toEqual([
      { commitId: A, lines: ['one', 'two'] },
      { commitId: B, lines: ['three'] },
      { commitId: A, lines: ['four'] },
    ]);
  });

  it('reads the same runs of lines without their content, whatever the content holds', () => {
    const output = [
      `${A} 1 1 2`, 'author A', 'summary \tnot content', 'filename f', '\tone', `${A} 2 2`, '\t', `${B} 3 3 1`, 'author B', 'filename f', `\t\t${B} 9 9 1`, `${A} 4 4 1`, '\tfour', '',
    ].join('\n');
    expect(parseBlameRuns(output)).toEqual(parseBlame(output).map((group) => ({ commitId: group.commitId, lines: group.lines.length })));
    expect(parseBlameRuns(output)).toEqual([
      { commitId: A, lines: 2 },
      { commitId: B, lines: 1 },
      { commitId: A, lines: 1 },
    ]);
    expect(parseBlameRuns('')).toEqual([]);
  });
});

describe('planning commit actions against the start tree', () => {
  const base = new Map<string, TreeEntry>([
    ['README.md', { mode: '100644', type: 'blob', id: A, path: 'README.md' }],
    ['docs/guide.md', { mode: '100644', type: 'blob', id: B, path: 'docs/guide.md' }],
    ['bin/run', { mode: '100755', type: 'blob', id: B, path: 'bin/run' }],
  ]);
  const text = (value: string) => Buffer.from(value);

  it('applies actions in order, each seeing the ones before it', () => {
    const changes = planActions(base, [
      { action: 'create', filePath: 'new.txt', content: text('one') },
      { action: 'update', filePath: 'new.txt', content: text('two') },
      { action: 'move', filePath: 'docs/moved.md', previousPath: 'docs/guide.md' },
      { action: 'chmod', filePath: 'README.md', executeFilemode: true },
      { action: 'update', filePath: 'bin/run', content: text('#!/bin/sh') },
      { action: 'delete', filePath: 'docs/moved.md' },
    ]);
    expect(Object.fromEntries(changes)).toEqual({
      'new.txt': { mode: '100644', content: text('two') },
      'docs/guide.md': null,
      'docs/moved.md': null,
      'README.md': { mode: '100755', id: A },
      'bin/run': { mode: '100755', content: text('#!/bin/sh') },
    });
  });

  it.each([
    [{ action: 'create' as const, filePath: 'README.md' }, 'A file with this name already exists'],
    [{ action: 'create' as const, filePath: 'docs' }, 'A directory with this name already exists'],
    [{ action: 'create' as const, filePath: 'README.md/x' }, 'A file with this name already exists'],
    [{ action: 'update' as const, filePath: 'nope.txt', content: text('x') }, "A file with this name doesn't exist"],
    [{ action: 'delete' as const, filePath: 'docs' }, "A file with this name doesn't exist"],
    [{ action: 'chmod' as const, filePath: 'nope', executeFilemode: true }, "A file with this name doesn't exist"],
    [{ action: 'move' as const, filePath: 'x', previousPath: 'nope' }, "A file with this name doesn't exist"],
    [{ action: 'move' as const, filePath: 'bin/run', previousPath: 'README.md' }, 'A file with this name already exists'],
  ])('refuses %j with Gitaly’s %j', (action, message) => {
    expect(() => planActions(base, [action])).toThrow(new RepositoryApiError(message));
  });

  it('lets a deleted directory’s path become a file', () => {
    const changes = planActions(base, [
      { action: 'delete', filePath: 'docs/guide.md' },
      { action: 'create', filePath: 'docs', content: text('now a file') },
    ]);
    expect(changes.get('docs')).toEqual({ mode: '100644', content: text('now a file') });
  });
});

describe('branch and tag filters', () => {
  it.each([
    ['feature/login', 'LOGIN', true], ['feature/login', '^feat', true], ['feature/login', '^login', false],
    ['feature/login', 'login$', true], ['feature/login', 'feature$', false], ['main', '^main$', true], ['mainline', '^main$', false], ['x', undefined, true],
  ])('%j matches the search %j: %s', (name, search, expected) => {
    expect(matchesSearch(name, search)).toBe(expected);
  });

  it('orders versions with numeric parts as numbers', () => {
    expect(['v1.10.0', 'v1.2.0', 'v1.9.1', 'v0.9'].sort(compareVersions)).toEqual(['v0.9', 'v1.2.0', 'v1.9.1', 'v1.10.0']);
  });
});

describe('archives', () => {
  it.each([
    ['tar.gz', 'tar.gz'], ['tgz', 'tar.gz'], ['gz', 'tar.gz'], ['tar.bz2', 'tar.bz2'], ['tbz', 'tar.bz2'], ['tbz2', 'tar.bz2'], ['tb2', 'tar.bz2'],
    ['bz2', 'tar.bz2'], ['tar', 'tar'], ['zip', 'zip'],
  ])('serves %s as .%s', (format, extension) => {
    expect(archiveExtension(format)).toBe(extension);
  });

  it('takes the path and the excluded paths literally', () => {
    expect(archivePathspecs('', [])).toEqual([]);
    expect(archivePathspecs('docs', [])).toEqual([':(literal)docs']);
    expect(archivePathspecs('', ['a*b'])).toEqual([':(literal).', ':(exclude,literal)a*b']);
  });

  it('names the archive after the project, ref, sha and path', () => {
    expect(archivePrefix('app', 'feature/x', A, '')).toBe(`app-feature-x-${A}`);
    expect(archivePrefix('app', 'main', A, 'docs/guide')).toBe(`app-main-${A}-docs-guide`);
  });
});
