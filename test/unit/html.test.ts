import { describe, expect, it } from 'vitest';
import { html, raw } from '../../src/platform/web/html.js';
import { safeReturnTo } from '../../src/platform/web/page.js';
import { decodedPath } from '../../src/platform/http/namespaced-routes.js';

describe('html', () => {
  it.each([
    ['<b>', '&lt;b&gt;'],
    ['"\'&', '&quot;&#39;&amp;'],
    [42, '42'],
    [null, ''],
    [undefined, ''],
    [false, ''],
  ])('escapes %s', (value, expected) => {
    expect(html`${value as string}`.value).toBe(expected);
  });

  it('joins arrays and keeps nested Html and raw() unescaped', () => {
    expect(html`<ul>${['a<', 'b'].map((item) => html`<li>${item}</li>`)}</ul>${raw('<hr>')}`.value).toBe('<ul><li>a&lt;</li><li>b</li></ul><hr>');
  });
});

describe('safeReturnTo', () => {
  it.each([
    ['/projects', '/projects'],
    ['/a?b=c', '/a?b=c'],
    ['//evil', '/'],
    ['/\\evil', '/'],
    ['https://evil', '/'],
    ['', '/'],
    [undefined, '/'],
    ['/x\ny', '/'],
  ])('%s → %s', (input, expected) => expect(safeReturnTo(input)).toBe(expected));
});

describe('decodedPath', () => {
  it.each([
    ['/group/sub/project/-/alert_management?x=1', 'group/sub/project/-/alert_management'],
    ['/g%2Fp.git/info/refs', 'g/p.git/info/refs'],
    ['/g/../etc/passwd', null],
    ['/g/%2e%2e/x', null],
    ['/g/%00', null],
    ['/g/%E0%A4%A', null],
    ['/g/./x', null],
    ['/g/..', null],
    ['/./g', null],
    ['/g\\x', null],
    ['/g/%5C/x', null],
    ['//g/.well/..x/p', 'g/.well/..x/p'],
  ])('%s → %s', (input, expected) => expect(decodedPath(input)).toBe(expected));
});
