// Query strings, forms and multipart fields as parameter bags (src/platform/http/param-bag.ts): Rails'
// shapes, Rack's limits, and work that grows with the input, not with its square.
import { describe, expect, it } from 'vitest';
import { expectCostRatioUnder } from '../helpers/fastest-run.js';
import { DEPTH_LIMIT, PARAMS_LIMIT, parseForm, parseQuery, routerQueryParser, QUERY_PROBLEM } from '../../src/platform/http/param-bag.js';
import { ApiError } from '../../src/platform/http/api-error.js';
import { parseMultipart } from '../../src/platform/http/multipart.js';

const plain = (value: unknown) => JSON.parse(JSON.stringify(value));

function refusal(run: () => unknown): { status: number; message: unknown } {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, message: error.body.message };
    throw error;
  }
  throw new Error('not refused');
}

describe('parseForm', () => {
  it('builds arrays and hashes as Rails does', () => {
    expect(plain(parseForm('a=1&b[]=x&b[]=y&c[d]=2&c[e][]=3&c[e][]=4'))).toEqual({
      a: '1',
      b: ['x', 'y'],
      c: { d: '2', e: ['3', '4'] },
      'c[d]': '2',
      'c[e]': ['3', '4'],
    });
  });

  it('fills the last hash of an array until a key repeats (`a[][b]`)', () => {
    const bag = parseForm('actions[][action]=create&actions[][file_path]=a&actions[][action]=delete&actions[][file_path]=b');
    expect(plain(bag.actions)).toEqual([
      { action: 'create', file_path: 'a' },
      { action: 'delete', file_path: 'b' },
    ]);
    expect(plain(parseForm('actions[0][action]=create&actions[1][action]=delete').actions)).toEqual({ 0: { action: 'create' }, 1: { action: 'delete' } });
  });

  it('lets the last pair win when kinds disagree, and treats odd names as plain', () => {
    expect(plain(parseForm('a=1&a[]=2'))).toEqual({ a: ['2'] });
    expect(plain(parseForm('a[]=1&a[b]=2'))).toEqual({ a: { b: '2' }, 'a[b]': '2' });
    expect(plain(parseForm('a[b=1&[c]=2&d]=3&e[f]g=4'))).toEqual({ 'a[b': '1', '[c]': '2', 'd]': '3', 'e[f]g': '4' });
  });

  it('keeps __proto__ a parameter: no bag gains a prototype from input', () => {
    const bag = parseForm('__proto__[polluted]=1&constructor[prototype][x]=2&__proto__[]=3');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(bag)).toBeNull();
    expect(plain(bag['__proto__'])).toEqual(['3']);
  });

  it(`refuses more than ${PARAMS_LIMIT} parameters and names nested deeper than ${DEPTH_LIMIT} levels with 400`, () => {
    expect(Object.keys(parseForm('a[]=&'.repeat(PARAMS_LIMIT))).length).toBe(1);
    expect(refusal(() => parseForm('a[]=&'.repeat(13_000)))).toEqual({ status: 400, message: `400 Bad request - too many parameters (the limit is ${PARAMS_LIMIT})` });
    expect(parseForm(`a${'[b]'.repeat(DEPTH_LIMIT)}=1`)).toBeTruthy();
    expect(refusal(() => parseForm(`a${'[b]'.repeat(DEPTH_LIMIT + 1)}=1`))).toEqual({ status: 400, message: `400 Bad request - parameter "a" is nested deeper than ${DEPTH_LIMIT} levels` });
  });

  it('refuses a NUL byte in a name or value with 400 naming the parameter', () => {
    expect(refusal(() => parseForm('ref_name=main%00x'))).toEqual({ status: 400, message: '400 Bad request - parameter "ref_name" contains a null byte' });
    expect(refusal(() => parseForm('a%00b=1')).status).toBe(400);
  });

  it('decodes invalid percent-escapes and UTF-8 without failing', () => {
    expect(plain(parseForm('a=%E0%A4%A&b=%ZZ&c=%C3%28'))).toEqual({ a: '\ufffd%A', b: '%ZZ', c: '\ufffd(' });
  });

  it('does work linear in the input: 4× the pairs cost well under 8× the time (quadratic would be 16×)', () => {
    // Within the limit, small enough that garbage collection does not dominate; the old parser's ratio
    // here was 20–60.
    const pairs = 1000;
    const arrays = (count: number) => 'a[]=x&'.repeat(count);
    const hashes = (count: number) => 'a[][b]=x&a[][c]=y&'.repeat(count / 2);
    for (const shape of [arrays, hashes]) {
      const small = shape(pairs);
      const large = shape(4 * pairs);
      expectCostRatioUnder(8, () => parseForm(large), () => parseForm(small));
    }
  });
});

describe('parseQuery', () => {
  it('keeps names flat and collects a repeated name into an array, as Fastify did', () => {
    expect(plain(parseQuery('labels[]=a&labels[]=b&not[labels]=c&x=1&x=2&y=3'))).toEqual({ 'labels[]': ['a', 'b'], 'not[labels]': 'c', x: ['1', '2'], y: '3' });
  });

  it('hands a refusal to the request hook instead of throwing inside the router', () => {
    const bag = routerQueryParser('a=1&'.repeat(PARAMS_LIMIT + 1)) as Record<symbol, unknown>;
    expect(bag[QUERY_PROBLEM]).toBeInstanceOf(ApiError);
    expect((routerQueryParser('ref=a%00') as Record<symbol, unknown>)[QUERY_PROBLEM]).toBeInstanceOf(ApiError);
  });
});

describe('parseMultipart', () => {
  const body = (fields: Array<[string, string]>) =>
    Buffer.from(fields.map(([name, value]) => `--X\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('') + '--X--\r\n');

  it('shapes fields as form bodies do', () => {
    expect(plain(parseMultipart(body([['a[]', '1'], ['a[]', '2'], ['h[k]', 'v']]), 'multipart/form-data; boundary=X'))).toEqual({ a: ['1', '2'], h: { k: 'v' }, 'h[k]': 'v' });
  });

  it('has the same limits', () => {
    const many = Array.from({ length: PARAMS_LIMIT + 1 }, (): [string, string] => ['a[]', '']);
    expect(refusal(() => parseMultipart(body(many), 'multipart/form-data; boundary=X')).status).toBe(400);
    expect(refusal(() => parseMultipart(body([['note', 'a\0b']]), 'multipart/form-data; boundary=X')).status).toBe(400);
  });
});
