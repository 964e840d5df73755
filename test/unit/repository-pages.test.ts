// Pure parts of the repository pages: addresses split into ref and path as GitLab's ExtractsRef,
// relative links of Markdown files, find-file matching, blame ages, "how long ago", and the
// name-only log that the last-commit walk reads.
import { describe, expect, it } from 'vitest';
import { splitRef } from '../../src/repositories/pages/resolve-ref.js';
import { resolveRelative } from '../../src/markdown/relative-links.js';
import { matchScore } from '../../src/repositories/pages/find-file-page.js';
import { ageBucket, shownMarkup } from '../../src/repositories/pages/blame-page.js';
import { lineMarkup } from '../../src/repositories/pages/file-lines.js';
import { timeAgo } from '../../src/repositories/pages/time.js';
import { parseNameOnlyLog } from '../../src/repositories/repository-api/last-commits.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const refs = new Map([
  ['refs/heads/main', A],
  ['refs/heads/feature', A],
  ['refs/heads/feature/x', B],
  ['refs/tags/v1', B],
]);

describe('splitRef', () => {
  it.each([
    ['main', { ref: 'main', kind: 'branch', path: '' }],
    ['main/src/app.ts', { ref: 'main', kind: 'branch', path: 'src/app.ts' }],
    ['feature/x/src', { ref: 'feature/x', kind: 'branch', path: 'src' }],
    ['feature/y', { ref: 'feature', kind: 'branch', path: 'y' }],
    ['v1/README.md', { ref: 'v1', kind: 'tag', path: 'README.md' }],
    ['abcdef1/x', { ref: 'abcdef1', kind: 'commit', path: 'x' }],
  ])('%s', (rest, expected) => {
    expect(splitRef(refs, rest)).toMatchObject(expected);
  });

  it.each(['nope', '--upload-pack=x', 'HEAD', 'main~1', 'abc'])('refuses %s', (rest) => {
    expect(splitRef(refs, rest)).toBeNull();
  });
});

describe('resolveRelative', () => {
  const links = { blobBase: '/g/p/-/blob/main', rawBase: '/g/p/-/raw/main', directory: 'docs/guide' };
  it.each([
    ['setup.md', 'link', '/g/p/-/blob/main/docs/guide/setup.md'],
    ['../README.md#top', 'link', '/g/p/-/blob/main/docs/README.md#top'],
    ['/LICENSE', 'link', '/g/p/-/blob/main/LICENSE'],
    ['../../../../etc/passwd', 'link', '/g/p/-/blob/main/etc/passwd'],
    ['img/a.png', 'image', '/g/p/-/raw/main/docs/guide/img/a.png'],
    ['#section', 'link', '#section'],
    ['https://example.com/x', 'link', 'https://example.com/x'],
    ['mailto:a@b.c', 'link', 'mailto:a@b.c'],
    ['//evil.example/x', 'link', '//evil.example/x'],
  ] as const)('%s → %s', (href, kind, expected) => {
    expect(resolveRelative(href, links, kind)).toBe(expected);
  });
});

describe('matchScore', () => {
  it('prefers the name, then the path, then letters in order, and refuses the rest', () => {
    expect(matchScore('src/guide.md', 'guide')).toBeLessThan(matchScore('guide/index.md', 'guide')!);
    expect(matchScore('docs/guide.md', 'gde')).not.toBeNull();
    expect(matchScore('docs/guide.md', 'xyz')).toBeNull();
  });
});

describe('ageBucket and timeAgo', () => {
  it('spreads ages over six buckets, newest first', () => {
    expect(ageBucket(100, 100, 0)).toBe(0);
    expect(ageBucket(0, 100, 0)).toBe(5);
    expect(ageBucket(50, 50, 50)).toBe(0);
  });

  it.each([
    [1000, 1000, 'just now'],
    [1000, 1060, '1 minute ago'],
    [0, 3 * 86400, '3 days ago'],
    [0, 400 * 86400, '1 year ago'],
    [7200, 0, 'in 2 hours'],
  ])('%i seen at %i is %s', (seconds, now, expected) => {
    expect(timeAgo(seconds, now)).toBe(expected);
  });
});

describe('parseNameOnlyLog', () => {
  it('reads each commit with the paths it changed', () => {
    expect(parseNameOnlyLog(`\x01${A}\0\0\x01${B}\0\nd/a\0d\0`)).toEqual([{ id: A, paths: [] }, { id: B, paths: ['d/a', 'd'] }]);
  });
});

describe('the blame page\'s highlighted lines', () => {
  // A TypeScript file whose later lines depend on what came before (a template literal and a block comment across lines).
  const text = `${Array.from({ length: 1500 }, (_, line) => (line % 7 === 0 ? 'const s = `start' : line % 7 === 3 ? 'end`; /* open' : line % 7 === 5 ? 'close */ export const x = 1;' : `let v${line} = "${line}";`)).join('\n')}\n`;

  it('highlights only the lines up to the last one shown when nothing is kept, as the whole file colours them, and keeps nothing', async () => {
    const writes: string[][] = [];
    const store = { read: async () => null, write: async (lines: string[]) => void writes.push(lines) };
    const whole = await lineMarkup('big.ts', text);
    expect(whole[0]).toContain('hljs-');
    const shown = await shownMarkup(store, 'big.ts', text, 1000);
    expect(shown).toEqual(whole.slice(0, 1000));
    expect(writes).toEqual([]);
  });

  it('uses the whole file\'s kept lines, and highlights and keeps the whole file when the page shows its end', async () => {
    const whole = await lineMarkup('big.ts', text);
    const kept = whole.map((line) => `${line}<!-- kept -->`);
    expect(await shownMarkup({ read: async () => kept, write: async () => undefined }, 'big.ts', text, 1000)).toEqual(kept);
    const writes: string[][] = [];
    expect(await shownMarkup({ read: async () => null, write: async (lines) => void writes.push(lines) }, 'big.ts', text, 1500)).toEqual(whole);
    expect(writes).toEqual([whole]);
  });
});
