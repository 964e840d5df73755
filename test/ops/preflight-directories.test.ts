// Nodes started together create the same data directory; the one that loses the mkdir race must
// go on (the race itself is covered by "two nodes running kiln migrate at once" in cli.test.ts).
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkWritableDirectory, createDirectory } from '../../src/operations/preflight.js';

describe('creating the data directory', () => {
  const roots: string[] = [];
  const root = () => {
    const path = mkdtempSync(join(tmpdir(), 'kiln-preflight-'));
    roots.push(path);
    return path;
  };
  afterEach(() => roots.splice(0).forEach((path) => rmSync(path, { recursive: true, force: true })));

  it('goes on when another process made the directory between the check and the mkdir', () => {
    const path = join(root(), 'repositories');
    createDirectory(path);
    expect(() => createDirectory(path)).not.toThrow();
    expect(statSync(path).isDirectory()).toBe(true);
  });

  it('still fails when a file stands where the directory should be', () => {
    const path = join(root(), 'repositories');
    writeFileSync(path, '');
    expect(() => createDirectory(path)).toThrow(/EEXIST/);
    expect(() => checkWritableDirectory('KILN_DATA_DIR', join(path, 'default'))).toThrow(/KILN_DATA_DIR .* is not a writable directory \(a parent is not a directory\)/);
  });
});
