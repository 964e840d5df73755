// Which highlight.js language a file is shown in, from its name alone (as GitLab's Rouge lexer guess
// starts): a few well-known file names, otherwise the extension, which highlight.js resolves through
// its aliases (`ts`, `py`, `yml`, `rs` …). Guessing from the content is slow and wrong too often.

const BY_NAME: Record<string, string> = {
  dockerfile: 'dockerfile',
  containerfile: 'dockerfile',
  makefile: 'makefile',
  gnumakefile: 'makefile',
  gemfile: 'ruby',
  rakefile: 'ruby',
  podfile: 'ruby',
  vagrantfile: 'ruby',
  'cmakelists.txt': 'cmake',
  jenkinsfile: 'groovy',
  '.gitlab-ci.yml': 'yaml',
  '.bashrc': 'bash',
  '.profile': 'bash',
  '.zshrc': 'bash',
  '.gitconfig': 'ini',
  '.editorconfig': 'ini',
};

/** Pure: the name highlight.js is asked for, or null for plain text. */
export function languageCandidate(path: string): string | null {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  if (BY_NAME[name]) return BY_NAME[name];
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return null;
  const extension = name.slice(dot + 1);
  // Extensions are short words; anything else is not worth a look-up.
  return /^[a-z0-9+_-]{1,16}$/.test(extension) ? extension : null;
}
