// The environment every git Kiln starts runs in, on the event loop or on a git thread: a minimal one
// (no secrets of ours leak into it) that never reads the operator's ~/.gitconfig or /etc/gitconfig.
export const GIT_ENV: Record<string, string> = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  HOME: '/nonexistent',
  LANG: 'C',
  // glibc's malloc gives memory back to the system as soon as 128 KiB are free at the heap's top, and
  // maps blocks over 128 KiB on their own: a blame or log that reads hundreds of versions of a
  // 150 KiB file then spends 40% of its time in page faults (measured: `git blame` of the bench's
  // 5,000-line file, 0.19 s of 0.45 s in the kernel; none with these). Other C libraries ignore them.
  MALLOC_MMAP_THRESHOLD_: String(4 * 1024 * 1024),
  MALLOC_TRIM_THRESHOLD_: String(8 * 1024 * 1024),
};
