// Passwords for `kiln admin` come from standard input or a prompt, never from the command line, where
// shell history and `ps` keep them. At a terminal the password is typed twice without echo; from a
// pipe (`printf '%s\n' "$PASSWORD" | kiln admin reset-password --username alice`) its first line is it.
import { UsageError } from '../platform/errors.js';

interface Input extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
}

function readAll(input: Input): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    input.setEncoding('utf8');
    input.on('data', (chunk: string) => (text += chunk));
    input.once('end', () => resolve(text));
    input.once('error', reject);
  });
}

/** One line typed at the terminal without echo; Ctrl-C stops the command. */
function promptHidden(input: Input, output: NodeJS.WritableStream, question: string): Promise<string> {
  return new Promise((resolve) => {
    output.write(question);
    input.setRawMode?.(true);
    input.setEncoding('utf8');
    input.resume();
    let typed = '';
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n' || char === '\u0004') {
          input.removeListener('data', onData);
          input.setRawMode?.(false);
          input.pause();
          output.write('\n');
          resolve(typed);
          return;
        }
        if (char === '\u0003') {
          input.setRawMode?.(false);
          output.write('\n');
          process.exit(130);
        }
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    input.on('data', onData);
  });
}

export async function readPassword(input: Input = process.stdin, output: NodeJS.WritableStream = process.stderr): Promise<string> {
  if (input.isTTY) {
    const password = await promptHidden(input, output, 'Password: ');
    const again = await promptHidden(input, output, 'Password again: ');
    if (password !== again) throw new UsageError('the two passwords typed differ');
    if (password === '') throw new UsageError('no password typed');
    return password;
  }
  const [line] = (await readAll(input)).split(/\r?\n/);
  if (!line) throw new UsageError(`no password on standard input: pipe it (printf '%s\\n' "$PASSWORD" | kiln admin …) or run the command at a terminal to be asked`);
  return line;
}
