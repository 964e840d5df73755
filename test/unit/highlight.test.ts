// Server-side highlighting (platform/web/highlight): markup cut into balanced lines, the language
// chosen by file name, and highlight.js run in its worker with escaping intact.
import { describe, expect, it } from 'vitest';
import { splitHighlightedLines } from '../../src/platform/web/highlight/split-lines.js';
import { languageCandidate } from '../../src/platform/web/highlight/language.js';
import { highlightText, highlightTexts } from '../../src/platform/web/highlight/highlighter.js';

describe('splitHighlightedLines', () => {
  it('closes the spans open at a line break and opens them again on the next line', () => {
    const markup = 'a <span class="c">/* one\ntwo <span class="d">x\ny</span> */</span> b\nlast';
    expect(splitHighlightedLines(markup)).toEqual([
      'a <span class="c">/* one</span>',
      '<span class="c">two <span class="d">x</span></span>',
      '<span class="c"><span class="d">y</span> */</span> b',
      'last',
    ]);
  });
});

describe('languageCandidate', () => {
  it.each([
    ['src/app.ts', 'ts'],
    ['Dockerfile', 'dockerfile'],
    ['build/Makefile', 'makefile'],
    ['.gitlab-ci.yml', 'yaml'],
    ['README', null],
    ['archive.', null],
    ['x.<script>', null],
  ])('%s → %s', (path, language) => {
    expect(languageCandidate(path)).toBe(language);
  });
});

describe('highlightTexts', () => {
  it('highlights a known language line by line, escaping what the text holds', async () => {
    const lines = await highlightText({ path: 'a.ts', text: 'const a = "<img src=x onerror=alert(1)>";\n/* x\ny */' });
    expect(lines).not.toBeNull();
    expect(lines![0]).toContain('<span class="hljs-keyword">const</span>');
    expect(lines![0]).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(lines![0]).not.toContain('<img');
    expect(lines).toHaveLength(3);
  });

  it('answers null for plain text, an unknown language or an empty text, in the order asked', async () => {
    const answers = await highlightTexts([{ path: 'notes.unknownlanguage', text: 'x' }, { path: 'a.py', text: 'def f(): pass' }, { path: 'README', text: 'plain' }, { path: 'b.js', text: '' }]);
    expect(answers[0]).toBeNull();
    expect(answers[1]![0]).toContain('hljs-keyword');
    expect(answers[2]).toBeNull();
    expect(answers[3]).toBeNull();
  });
});
