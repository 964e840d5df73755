import { describe, expect, it } from 'vitest';
import { commitTitle, refChanges } from '../../src/repositories/record-push-events.js';
import { cleanPath, GIT_URL } from '../../src/repositories/git-http/serve-git.js';
import { parseBasic } from '../../src/repositories/git-http/authenticate.js';
import { diskPathFor } from '../../src/repositories/ensure-repository.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

describe('refChanges', () => {
  it('lists created, updated and removed branches and tags, ignoring other refs', () => {
    const before = new Map([['refs/heads/main', A], ['refs/heads/old', A], ['refs/notes/commits', A], ['refs/tags/same', A]]);
    const after = new Map([['refs/heads/main', B], ['refs/heads/new', B], ['refs/notes/commits', B], ['refs/tags/same', A], ['refs/tags/v1', B]]);
    expect(refChanges(before, after)).toEqual([
      { ref: 'refs/heads/main', before: A, after: B },
      { ref: 'refs/heads/new', before: null, after: B },
      { ref: 'refs/heads/old', before: A, after: null },
      { ref: 'refs/tags/v1', before: null, after: B },
    ]);
  });
});

describe('commitTitle', () => {
  const cases: Array<[string, string | null]> = [
    ['Fix it\n\nBody', 'Fix it'],
    ['  padded  \n', 'padded'],
    ['x'.repeat(70), 'x'.repeat(70)],
    ['x'.repeat(71), `${'x'.repeat(67)}...`],
    ['', null],
  ];
  for (const [message, title] of cases) it(JSON.stringify(message).slice(0, 30), () => expect(commitTitle(message)).toBe(title));
});

describe('git URLs', () => {
  const cases: Array<[string, { path: string; action: string } | null]> = [
    ['g/p.git/info/refs', { path: 'g/p', action: 'info/refs' }],
    ['g/sub/p.git/git-upload-pack', { path: 'g/sub/p', action: 'git-upload-pack' }],
    ['g.wiki.git/git-receive-pack', { path: 'g.wiki', action: 'git-receive-pack' }],
    ['g/p.git/objects/info/packs', null],
    ['g/p.git/HEAD', null],
  ];
  for (const [url, expected] of cases) {
    it(url, () => {
      const match = GIT_URL.exec(url);
      expect(match ? { path: match.groups!.path, action: match.groups!.action } : null).toEqual(expected);
    });
  }

  const paths: Array<[string, boolean]> = [
    ['group/project', true],
    ['group/sub.group/my-project_1', true],
    ['group/../etc', false],
    ['group/./p', false],
    ['group//p', false],
    ['.git/p', false],
    ['group/p\0', false],
    ['group/p q', false],
  ];
  for (const [path, accepted] of paths) it(`cleanPath(${JSON.stringify(path)})`, () => expect(cleanPath(path) !== null).toBe(accepted));
});

describe('parseBasic', () => {
  it('splits at the first colon, so passwords may contain colons', () => {
    expect(parseBasic(`Basic ${Buffer.from('oauth2:a:b').toString('base64')}`)).toEqual({ username: 'oauth2', password: 'a:b' });
  });
  it('ignores other schemes and malformed values', () => {
    expect(parseBasic('Bearer abc')).toBeNull();
    expect(parseBasic(`Basic ${Buffer.from('nocolon').toString('base64')}`)).toBeNull();
    expect(parseBasic(undefined)).toBeNull();
  });
});

describe('diskPathFor', () => {
  it('uses hashed paths that never contain user input', () => {
    expect(diskPathFor({ type: 'project', id: 1 })).toMatch(/^@hashed\/6b\/86\/6b86b273[0-9a-f]{56}\.git$/);
    expect(diskPathFor({ type: 'group', id: 1 })).toMatch(/^@groups\/6b\/86\/6b86b273[0-9a-f]{56}\.wiki\.git$/);
  });
});
