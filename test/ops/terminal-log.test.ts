// Log lines for people: pino's JSON rewritten by pino-pretty as `[HH:MM:ss.l] LEVEL: message {fields}`,
// the error's stack below; the format follows KILN_LOG_FORMAT (json, pretty, auto), or whether
// standard output is a terminal.
import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/platform/logger.js';
import { loadConfig, ConfigError } from '../../src/config.js';
import { terminalLogStream, wantsText } from '../../src/operations/terminal-log.js';

function capture(): { out: Writable; text: () => string } {
  let text = '';
  return { out: new Writable({ write: (chunk, _encoding, done) => ((text += chunk), done()) }), text: () => text };
}

describe('terminalLogStream (pino-pretty)', () => {
  it('puts the time, the level and the message first, then the fields on the same line, without pid and hostname', () => {
    const { out, text } = capture();
    createLogger('info', terminalLogStream(out, { colorize: false })).info({ url: 'http://127.0.0.1:8080', count: 3 }, 'Kiln is ready');
    expect(text()).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: Kiln is ready \{"url":"http:\/\/127\.0\.0\.1:8080","count":3\}\n$/);
    expect(text()).not.toMatch(/pid|hostname/);
  });

  it('prints an error with its message and its stack below', () => {
    const { out, text } = capture();
    const error = new Error('boom');
    createLogger('info', terminalLogStream(out, { colorize: false })).error({ err: error }, 'job failed');
    const lines = text().split('\n');
    expect(lines[0]).toMatch(/^\[[\d:.]+\] ERROR: job failed/);
    expect(text()).toContain('Error: boom');
    expect(text()).toMatch(/\n\s+at .+terminal-log\.test\.ts/);
  });

  it('colours the level when asked (a terminal that supports it)', () => {
    const { out, text } = capture();
    createLogger('info', terminalLogStream(out, { colorize: true })).warn('careful');
    expect(text()).toContain('\u001b[');
  });

  it('still redacts through pino: a secret never reaches the text', () => {
    const { out, text } = capture();
    createLogger('info', terminalLogStream(out, { colorize: false })).info({ body: { password: 'hunter2' }, user: 'alice' }, 'signed in');
    expect(text()).toContain('INFO: signed in {"body":{"password":"[REDACTED]"},"user":"alice"}');
    expect(text()).not.toContain('hunter2');
  });

  it('passes a line that is not JSON through', () => {
    const { out, text } = capture();
    terminalLogStream(out, { colorize: false }).write('plain words\n');
    expect(text()).toBe('plain words\n');
  });
});

describe('KILN_LOG_FORMAT', () => {
  it('auto (the default): pretty on a terminal, JSON otherwise; json and pretty as set; text is pretty\'s former name', () => {
    const format = (value?: string) => loadConfig(value === undefined ? {} : { KILN_LOG_FORMAT: value });
    expect(format().logFormat).toBe('auto');
    expect([wantsText(format(), true), wantsText(format(), false)]).toEqual([true, false]);
    expect([wantsText(format('json'), true), wantsText(format('json'), false)]).toEqual([false, false]);
    expect([wantsText(format('pretty'), true), wantsText(format('pretty'), false)]).toEqual([true, true]);
    expect(format('text').logFormat).toBe('pretty');
  });

  it('refuses anything else, naming the choices', () => {
    expect(() => loadConfig({ KILN_LOG_FORMAT: 'xml' })).toThrow(ConfigError);
    expect(() => loadConfig({ KILN_LOG_FORMAT: 'xml' })).toThrow('KILN_LOG_FORMAT must be one of auto, json, pretty, got "xml"');
  });
});
