// Log lines for a person at a terminal, written by pino-pretty: `[14:20:01.123] INFO: Kiln is ready
// {"url":"http://…"}`, an error's stack below its line, colours where the terminal has them (and
// NO_COLOR is unset). pino still produces (and redacts) the JSON line; pino-pretty only rewrites it,
// so what is logged is the same in both formats. Files and pipes get the JSON lines (GitLab's log
// format, for collectors) unless KILN_LOG_FORMAT says otherwise.
import { createRequire } from 'node:module';
import type { DestinationStream } from 'pino';
import type { PrettyOptions } from 'pino-pretty';
import type { Config } from '../config.js';

/** Local clock time, no pid or hostname, a record's fields on its message's line. */
export const PRETTY_OPTIONS: PrettyOptions = { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true };

/**
 * pino-pretty is loaded only by a process that prints for people: a service writing JSON never
 * loads it. `colorize` defaults to what the terminal supports.
 */
export function terminalLogStream(out: { write(text: string): unknown }, options: Pick<PrettyOptions, 'colorize'> = {}): DestinationStream {
  const { prettyFactory } = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
  const format = prettyFactory({ ...PRETTY_OPTIONS, ...options });
  // pino's line ends with a newline and pino-pretty adds its own: one is enough.
  return { write: (line: string) => void out.write(format(line.endsWith('\n') ? line.slice(0, -1) : line)) };
}

export function wantsText(config: Pick<Config, 'logFormat'>, stdoutIsTerminal: boolean): boolean {
  return config.logFormat === 'pretty' || (config.logFormat === 'auto' && stdoutIsTerminal);
}

/** The destination for createLogger: pino-pretty for a terminal (or KILN_LOG_FORMAT=pretty), pino's own JSON otherwise. */
export function logDestination(config: Pick<Config, 'logFormat'>): DestinationStream | undefined {
  return wantsText(config, Boolean(process.stdout.isTTY)) ? terminalLogStream(process.stdout) : undefined;
}
