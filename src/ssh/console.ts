// How gitlab-shell shows messages on the client's terminal (internal/console/console.go): each line
// prefixed with `remote: `, a warning between two rules of 72 `=`, an informational one between blank
// lines. git prints the client's stderr as it comes, then its own "fatal: Could not read from remote
// repository." after a refusal.
const RULE = '='.repeat(72);

function line(text: string): string {
  return `remote: ${text}\n`;
}

export function warningBlock(messages: string[]): string {
  const divider = `${line('')}${line(RULE)}${line('')}`;
  return `${divider}${messages.map(line).join('')}${divider}`;
}

export function infoBlock(messages: string[]): string {
  if (messages.every((message) => message.trim() === '')) return '';
  return `${line('')}${messages.map(line).join('')}${line('')}`;
}

/** A refusal as gitlab-sshd prints it: `ERROR: <message>` in a warning block. */
export function errorBlock(message: string): string {
  return warningBlock(message.split('\n').map((text, index) => (index === 0 ? `ERROR: ${text}` : text)));
}
