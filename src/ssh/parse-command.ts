// The command an SSH client asked for, split into words as a POSIX shell would (gitlab-shell splits
// SSH_ORIGINAL_COMMAND with go-shellwords): single quotes keep everything, double quotes keep all but
// `\"` and `\\`, a backslash outside quotes escapes the next character. Nothing is expanded: the words
// are data, never run by a shell. `git upload-pack x` (Git for Windows 2.14) is `git-upload-pack x`.

/** The words of `command`, or null when a quote is left open. */
export function splitCommand(command: string): string[] | null {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < command.length; i += 1) {
    const char = command[i];
    if (quote === "'") {
      if (char === "'") quote = null;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = null;
      else if (char === '\\' && (command[i + 1] === '"' || command[i + 1] === '\\')) word += command[++i];
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === '\\' && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (char === ' ' || char === '\t' || char === '\n') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote) return null;
  if (inWord) words.push(word);
  if (words.length > 1 && words[0] === 'git') return [`git-${words[1]}`, ...words.slice(2)];
  return words;
}

/**
 * A repository path as the client typed it (`group/project.git`, `/group/project.git`,
 * `~/group/project`): the leading slash or `~/`, a trailing slash and `.git` go.
 */
export function repositoryPathOf(argument: string): string {
  return argument.replace(/^~?\/+/, '').replace(/\/+$/, '').replace(/\.git$/, '');
}
