// A free namespace path like the one asked for (GitLab's Namespace.clean_path with Uniquify): the
// path cleaned to the characters a path may hold, then the first of path1, path2, … not taken.
const MAX_TRIES = 1000;

export function cleanPath(path: string): string {
  const cleaned = path
    .replace(/@.*$/, '')
    .replace(/\.git$/, '')
    .replace(/^-+/, '')
    .replace(/\.+$/, '')
    .replace(/[^a-zA-Z0-9_\-.]/g, '');
  return cleaned === '' ? 'blank' : cleaned;
}

export async function suggestPath(path: string, taken: (path: string) => Promise<boolean>): Promise<string> {
  const base = cleanPath(path);
  if (!(await taken(base))) return base;
  for (let counter = 1; counter <= MAX_TRIES; counter += 1) {
    const candidate = `${base}${counter}`;
    if (!(await taken(candidate))) return candidate;
  }
  return `${base}${Date.now()}`;
}
