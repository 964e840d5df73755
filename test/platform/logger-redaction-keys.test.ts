// The logger's redaction of secret keys (src/platform/logger.ts): a password, token or secret is
// never written, whether it is a top-level key of the logged object or one level down.
import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/platform/logger.js';

function logged(values: Record<string, unknown>): string {
  const lines: string[] = [];
  const sink = new Writable({ write: (chunk, _encoding, done) => done(void lines.push(String(chunk))) });
  createLogger('info', sink).info(values, 'something happened');
  return lines.join('');
}

const KEYS = ['password', 'token', 'access_token', 'refresh_token', 'client_secret', 'private_token', 'authenticity_token'];

describe('createLogger', () => {
  it.each(KEYS)('redacts a top-level %s', (key) => {
    const line = logged({ [key]: 'hunter2-secret-value', user: 'dora' });
    expect(line).not.toContain('hunter2-secret-value');
    expect(JSON.parse(line)[key]).toBe('[REDACTED]');
    expect(JSON.parse(line).user).toBe('dora');
  });

  it.each(KEYS)('redacts a nested %s', (key) => {
    const line = logged({ params: { [key]: 'hunter2-secret-value', name: 'x' } });
    expect(line).not.toContain('hunter2-secret-value');
    expect(JSON.parse(line).params).toEqual({ [key]: '[REDACTED]', name: 'x' });
  });
});
