// The actions of one API commit (GitLab's commit actions: create, update, move, delete, chmod)
// applied in order to the files of the start commit, refused with Gitaly's index errors. Pure: the
// caller reads the files and writes what this returns.
import { COMMIT_MESSAGES } from './errors.js';
import { RepositoryApiError } from './errors.js';
import type { TreeEntry } from './tree-entries.js';

export type ActionName = 'create' | 'update' | 'move' | 'delete' | 'chmod';

export interface FileAction {
  action: ActionName;
  filePath: string;
  previousPath?: string;
  /** The new content; absent on a move keeps the moved file's content. */
  content?: Buffer;
  executeFilemode?: boolean;
  lastCommitId?: string;
}

/** One file as the new tree has it: a new content to store, or an existing blob kept. */
export interface PlannedFile {
  mode: string;
  content?: Buffer;
  id?: string;
}

export type FileChanges = Map<string, PlannedFile | null>;

const REGULAR = '100644';
const EXECUTABLE = '100755';

/**
 * A path as Gitaly cleans it (relative to the root, `.` and `..` resolved): `//` is an invalid path,
 * climbing above the root is directory traversal, nothing left is an empty path.
 */
export function cleanActionPath(path: string): string {
  if (path === '') throw new RepositoryApiError(COMMIT_MESSAGES.emptyPath);
  if (path.includes('//') || path.includes('\0')) throw new RepositoryApiError(`invalid path: '${path}'`);
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) throw new RepositoryApiError(COMMIT_MESSAGES.traversal);
      segments.pop();
    } else segments.push(segment);
  }
  if (segments.length === 0) throw new RepositoryApiError(COMMIT_MESSAGES.emptyPath);
  // git refuses a tree entry named .git (fsck's hasDotgit): it would become the repository of a checkout.
  if (segments.some((segment) => segment.toLowerCase() === '.git')) throw new RepositoryApiError(`invalid path: '${path}'`);
  return segments.join('/');
}

/** The files of the new tree as seen while the actions apply: the start files with the changes so far. */
class Files {
  constructor(
    private readonly base: ReadonlyMap<string, TreeEntry>,
    readonly changes: FileChanges,
  ) {}

  get(path: string): PlannedFile | null {
    if (this.changes.has(path)) return this.changes.get(path) ?? null;
    const entry = this.base.get(path);
    return entry ? { mode: entry.mode, id: entry.id } : null;
  }

  /** A directory exists at `path` when a file lives below it. */
  isDirectory(path: string): boolean {
    const prefix = `${path}/`;
    for (const [name, file] of this.changes) if (file && name.startsWith(prefix)) return true;
    for (const name of this.base.keys()) if (name.startsWith(prefix) && this.changes.get(name) !== null) return true;
    return false;
  }

  /** A file stands where a directory of `path` would go (`a` when creating `a/b`). */
  blockedByFile(path: string): boolean {
    const segments = path.split('/');
    for (let length = 1; length < segments.length; length += 1) if (this.get(segments.slice(0, length).join('/'))) return true;
    return false;
  }

  set(path: string, file: PlannedFile | null): void {
    this.changes.set(path, file);
  }
}

function place(files: Files, path: string, file: PlannedFile): void {
  if (files.get(path) || files.blockedByFile(path)) throw new RepositoryApiError(COMMIT_MESSAGES.fileExists);
  if (files.isDirectory(path)) throw new RepositoryApiError(COMMIT_MESSAGES.directoryExists);
  files.set(path, file);
}

function existing(files: Files, path: string): PlannedFile {
  const file = files.get(path);
  if (!file) throw new RepositoryApiError(COMMIT_MESSAGES.fileMissing);
  return file;
}

export function planActions(base: ReadonlyMap<string, TreeEntry>, actions: readonly FileAction[]): FileChanges {
  const files = new Files(base, new Map());
  for (const action of actions) {
    const path = cleanActionPath(action.filePath);
    switch (action.action) {
      case 'create':
        place(files, path, { mode: action.executeFilemode ? EXECUTABLE : REGULAR, content: action.content ?? Buffer.alloc(0) });
        break;
      case 'update': {
        const file = existing(files, path);
        const mode = action.executeFilemode === undefined ? file.mode : action.executeFilemode ? EXECUTABLE : REGULAR;
        files.set(path, { mode, content: action.content ?? Buffer.alloc(0) });
        break;
      }
      case 'delete':
        existing(files, path);
        files.set(path, null);
        break;
      case 'chmod': {
        const file = existing(files, path);
        files.set(path, { ...file, mode: action.executeFilemode ? EXECUTABLE : REGULAR });
        break;
      }
      case 'move': {
        const from = cleanActionPath(action.previousPath ?? '');
        const file = existing(files, from);
        files.set(from, null);
        place(files, path, action.content === undefined ? file : { mode: file.mode, content: action.content });
        break;
      }
    }
  }
  return files.changes;
}
