// Length limits of platform/http/params.ts: defaults by parameter name, a route's own `max`, and
// Grape's errors first.
import { describe, expect, it } from 'vitest';
import { p, parseParams, tooLongMessage } from '../../src/platform/http/params.js';
import { ParamError, ValidationError } from '../../src/platform/errors.js';

function failure(input: Record<string, unknown>, schema: Parameters<typeof parseParams>[1]) {
  try {
    parseParams(input, schema);
  } catch (error) {
    return error;
  }
  return null;
}

describe('parseParams text lengths', () => {
  it.each([
    ['title', 255],
    ['name', 255],
    ['path', 255],
    ['description', 1_048_576],
  ])('limits %s to %d characters by default', (name, max) => {
    expect(failure({ [name]: 'a'.repeat(max) }, { [name]: p.string.optional() })).toBeNull();
    const error = failure({ [name]: 'a'.repeat(max + 1) }, { [name]: p.string.optional() });
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fields).toEqual({ [name]: [tooLongMessage(max)] });
  });

  it('reports a note body as note, as GitLab\'s model does', () => {
    const error = failure({ body: 'a'.repeat(1_000_001) }, { body: p.string.required() });
    expect((error as ValidationError).fields).toEqual({ note: ['is too long (maximum is 1000000 characters)'] });
  });

  it('takes a route\'s own max, and counts characters, not UTF-16 units', () => {
    expect(failure({ bio: '🔥'.repeat(3) }, { bio: p.string.optional({ max: 3 }) })).toBeNull();
    expect((failure({ bio: '🔥'.repeat(4) }, { bio: p.string.optional({ max: 3 }) }) as ValidationError).fields).toEqual({ bio: ['is too long (maximum is 3 characters)'] });
    expect((failure({ title: 'ab' }, { title: p.string.optional({ max: 1 }) }) as ValidationError).fields).toEqual({ title: ['is too long (maximum is 1 character)'] });
  });

  it('lists every over-long field together, after Grape\'s errors', () => {
    const schema = { title: p.string.optional(), name: p.string.optional(), id: p.integer.required() };
    expect(failure({ title: 'a'.repeat(256), name: 'a'.repeat(256) }, schema)).toBeInstanceOf(ParamError);
    expect((failure({ title: 'a'.repeat(256), name: 'a'.repeat(256), id: 1 }, schema) as ValidationError).fields).toEqual({
      title: [tooLongMessage(255)],
      name: [tooLongMessage(255)],
    });
  });

  it('leaves other names and other types alone', () => {
    expect(failure({ search: 'a'.repeat(5000), name: 12 }, { search: p.string.optional(), name: p.integer.optional() })).toBeNull();
  });
});
