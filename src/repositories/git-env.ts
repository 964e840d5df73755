// The environment every git Kiln starts runs in, on the event loop or on a git thread: a minimal one
// (no secrets of ours leak into it) that never reads the operator's ~/.gitconfig or /etc/gitconfig.
export const GIT_ENV: Record<string, string> = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  HOME: '/nonexistent',
  LANG: 'C',
};
