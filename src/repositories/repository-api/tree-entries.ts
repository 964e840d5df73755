// Tree entries as `git ls-tree -z` prints them (`<mode> SP <type> SP <oid> TAB <path> NUL`), and
// the paths GitLab accepts for trees and files.

export interface TreeEntry {
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  id: string;
  path: string;
}

export function parseLsTree(output: Buffer | string, prefix = ''): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const record of output.toString().split('\0')) {
    if (!record) continue;
    const tab = record.indexOf('\t');
    const [mode, type, id] = record.slice(0, tab).split(' ');
    entries.push({ mode, type: type as TreeEntry['type'], id, path: prefix + record.slice(tab + 1) });
  }
  return entries;
}

/**
 * The entry named `name` of a tree object as `git cat-file` gives it (`<mode> SP <name> NUL <id>`,
 * the id `idBytes` raw bytes: 20 for SHA-1, 32 for SHA-256), as ls-tree would print it, or null.
 */
export function entryOfTree(tree: Buffer, name: string, idBytes: number, prefix = ''): TreeEntry | null {
  const wanted = Buffer.from(name);
  let at = 0;
  while (at < tree.length) {
    const space = tree.indexOf(0x20, at);
    const nul = space < 0 ? -1 : tree.indexOf(0, space + 1);
    if (nul < 0 || nul + 1 + idBytes > tree.length) return null;
    if (nul - space - 1 === wanted.length && tree.subarray(space + 1, nul).equals(wanted)) {
      const mode = tree.subarray(at, space).toString('latin1').padStart(6, '0');
      const type = mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob';
      return { mode, type, id: tree.subarray(nul + 1, nul + 1 + idBytes).toString('hex'), path: prefix + name };
    }
    at = nul + 1 + idBytes;
  }
  return null;
}

/** The last segment of a path. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * A repository path as given by a client, without leading or trailing slashes, or null when it
 * climbs out (`..`) or names the current directory (`.`): such paths never reach git's `rev:path`.
 */
export function cleanRepositoryPath(path: string): string | null {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  if (trimmed === '') return '';
  const segments = trimmed.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..' || segment.includes('\0'))) return null;
  return trimmed;
}

/**
 * The files API's `file_path` validator (API::Validations::Validators::FilePath): no path traversal
 * (Gitlab::PathTraversal.check_path_traversal!) and not absolute.
 */
export function isValidFilePath(path: string): boolean {
  if (path === '' || path.startsWith('/') || path.includes('\0')) return false;
  const decoded = path.replace(/%2e/gi, '.').replace(/%2f/gi, '/').replace(/\\/g, '/');
  return !decoded.split('/').some((segment) => segment === '..');
}
