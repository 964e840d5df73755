// Pure parts of the repository pages: addresses split into ref and path as GitLab's ExtractsRef,
// relative links of Markdown files, find-file matching, blame ages, "how long ago", and the
// name-only log that the last-commit walk reads.
import { describe, expect, it } from 'vitest';
import { splitRef } from '../../src/repositories/pages/resolve-ref.js';
import { resolveRelative } from '../../src/markdown/relative-links.js';
import { matchScore } from '../../src/repositories/pages/find-file-page.js';
import { ageBucket, shownMarkup } from '../../src/repositories/pages/blame-page.js';
import { lineMarkup } from '../../src/repositories/pages/file-lines.js';
import { CHUNK_LINES, chunkMarkup } from '../../src/repositories/pages/blob-chunks.js';
import { escapeHtml } from '../../src/platform/web/html.js';
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

  /** The file as the blame page names it, with a store the test reads back. */
  function file(kept: string[] | null, name = `big-${Math.random()}`) {
    const writes: string[][] = [];
    return { writes, file: { path: 'big.ts', text, blobId: name, store: { read: async () => kept, write: async (lines: string[]) => void writes.push(lines) } } };
  }

  it('cold, highlights the page\'s first chunk as the whole file colours it and sends the rest plain; a later chunk is cut from the whole file\'s highlighting, which is kept', async () => {
    const whole = await lineMarkup('big.ts', text);
    expect(whole[0]).toContain('hljs-');
    const cold = file(null);
    const shown = await shownMarkup(cold.file, 1, 1000);
    expect(shown.plainFrom).toBe(CHUNK_LINES + 1);
    expect(shown.markup.slice(0, CHUNK_LINES)).toEqual(whole.slice(0, CHUNK_LINES));
    expect(shown.markup.slice(CHUNK_LINES)).toEqual(text.split('\n').slice(CHUNK_LINES, 1000).map((line) => escapeHtml(line)));
    expect(cold.writes).toEqual([]);
    expect(await chunkMarkup(cold.file, 6)).toEqual(whole.slice(600, 700));
    expect(cold.writes).toEqual([whole]);
    // Page 2 highlights up to the end of its own first chunk.
    const second = await shownMarkup(file(null).file, 1001, 1500);
    expect(second.plainFrom).toBe(1001 + CHUNK_LINES);
    expect(second.markup.slice(1000, 1000 + CHUNK_LINES)).toEqual(whole.slice(1000, 1000 + CHUNK_LINES));
  });

  it('uses the whole file\'s kept lines, and highlights and keeps the whole file when the page\'s first chunk reaches its end', async () => {
    const whole = await lineMarkup('big.ts', text);
    const kept = whole.map((line) => `${line}<!-- kept -->`);
    expect(await shownMarkup(file(kept).file, 1, 1000)).toEqual({ markup: kept, plainFrom: 1001 });
    const last = file(null);
    expect(await shownMarkup(last.file, 1401, 1500)).toEqual({ markup: whole, plainFrom: 1501 });
    expect(last.writes).toEqual([whole]);
  });
});
