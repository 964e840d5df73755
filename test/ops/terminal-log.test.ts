// Log lines for people: pino's JSON rewritten as `HH:MM:SS LEVEL message  key=value`, with the
// error's stack below; the format follows KILN_LOG_FORMAT, or whether stdout is a terminal.
import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/platform/logger.js';
import { formatLogLine, terminalLogStream, wantsText } from '../../src/operations/terminal-log.js';

describe('formatLogLine', () => {
  it('puts the time, the level and the message first, then the fields, leaving out pid and hostname', () => {
    const time = new Date(2026, 10, 23, 9, 5, 7).getTime();
    const line = JSON.stringify({ level: 30, time, pid: 1, hostname: 'h', msg: 'Kiln is ready', url: 'http://127.0.0.1:8080', count: 3 });
    expect(formatLogLine(line)).toBe('09:05:07 INFO  Kiln is ready  url=http://127.0.0.1:8080 count=3\n');
  });

  it('quotes values with spaces and writes objects as JSON', () => {
    const line = JSON.stringify({ level: 40, time: 0, msg: 'slow', reason: 'two words', req: { id: 'r1' } });
    expect(formatLogLine(line)).toMatch(/^\d\d:\d\d:\d\d WARN {2}slow {2}reason="two words" req=\{"id":"r1"\}\n$/);
  });

  it('appends the error message and its stack, indented', () => {
    const line = JSON.stringify({ level: 50, time: 0, msg: 'job failed', err: { message: 'boom', stack: 'Error: boom\n    at one (a.js:1:1)\n    at two (b.js:2:2)' } });
    expect(formatLogLine(line).split('\n')).toEqual([expect.stringMatching(/ ERROR job failed: boom$/), '    at one (a.js:1:1)', '    at two (b.js:2:2)', '']);
  });

  it('passes a line that is not JSON through', () => {
    expect(formatLogLine('plain words')).toBe('plain words\n');
  });

  it('still redacts through pino: a secret never reaches the text', () => {
    let text = '';
    const out = new Writable({ write: (chunk, _encoding, done) => ((text += chunk), done()) });
    createLogger('info', terminalLogStream(out)).info({ body: { password: 'hunter2' }, user: 'alice' }, 'signed in');
    expect(text).toMatch(/INFO {2}signed in {2}body=\{"password":"\[REDACTED\]"\} user=alice\n$/);
  });
});

describe('wantsText', () => {
  it('auto: text on a terminal, JSON otherwise; text and json as set', () => {
    expect(wantsText({ logFormat: 'auto' }, true)).toBe(true);
    expect(wantsText({ logFormat: 'auto' }, false)).toBe(false);
    expect(wantsText({ logFormat: 'text' }, false)).toBe(true);
    expect(wantsText({ logFormat: 'json' }, true)).toBe(false);
  });
});
