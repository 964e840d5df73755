// Log lines for a person at a terminal: `23:31:02 INFO  Kiln is ready  url=http://…`, the error's
// stack below it. pino still produces (and redacts) the JSON line; this stream only rewrites it, so
// what is logged is the same in both formats. Log collectors get the JSON (KILN_LOG_FORMAT).
import type { DestinationStream } from 'pino';
import type { Config } from '../config.js';

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const OMITTED = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'err']);

function clock(time: unknown): string {
  const date = typeof time === 'number' ? new Date(time) : new Date();
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

function show(value: unknown): string {
  if (typeof value === 'string') return /[\s"=]/.test(value) || value === '' ? JSON.stringify(value) : value;
  return JSON.stringify(value);
}

export function formatLogLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const level = (LEVELS[entry.level as number] ?? String(entry.level)).padEnd(5);
  const fields = Object.entries(entry)
    .filter(([key, value]) => !OMITTED.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${show(value)}`);
  const err = entry.err as { message?: string; stack?: string } | string | undefined;
  const message = [entry.msg ?? '', typeof err === 'string' ? err : err?.message].filter(Boolean).join(': ');
  let text = `${clock(entry.time)} ${level} ${message}${fields.length ? `  ${fields.join(' ')}` : ''}\n`;
  if (typeof err === 'object' && err?.stack) text += `${err.stack.split('\n').slice(1).map((frame) => `    ${frame.trim()}`).join('\n')}\n`;
  return text;
}

export function terminalLogStream(out: { write(text: string): unknown }): DestinationStream {
  return { write: (line: string) => void out.write(formatLogLine(line)) };
}

export function wantsText(config: Pick<Config, 'logFormat'>, stdoutIsTerminal: boolean): boolean {
  return config.logFormat === 'text' || (config.logFormat === 'auto' && stdoutIsTerminal);
}

/** The destination for createLogger: text for a terminal (or KILN_LOG_FORMAT=text), pino's own JSON otherwise. */
export function logDestination(config: Pick<Config, 'logFormat'>): DestinationStream | undefined {
  return wantsText(config, Boolean(process.stdout.isTTY)) ? terminalLogStream(process.stdout) : undefined;
}
