import { describe, expect, it } from 'vitest';
import { safeEqual, SecretBox, sha256Hex } from '../../src/platform/crypto.js';
import { randomBytes } from 'node:crypto';

describe('safeEqual', () => {
  it.each([
    ['abc', 'abc', true],
    ['abc', 'abd', false],
    ['abc', 'abcd', false],
    ['', '', true],
    ['', 'a', false],
    ['ü', 'u', false],
    [sha256Hex('x'), sha256Hex('x'), true],
    [sha256Hex('x'), sha256Hex('y'), false],
  ])('%j vs %j → %s', (given, expected, result) => expect(safeEqual(given, expected)).toBe(result));
});

describe('SecretBox', () => {
  it('opens what it sealed, and refuses a tampered or foreign value', () => {
    const box = new SecretBox(randomBytes(32));
    const sealed = box.seal('integration key');
    expect(sealed).not.toContain('integration key');
    expect(box.open(sealed)).toBe('integration key');
    const [iv, tag, body] = sealed.split('.');
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] ^= 1;
    expect(() => box.open([iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
  });
});
