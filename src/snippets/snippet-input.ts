// The files of a snippet as clients send them (lib/api/helpers/snippets_helpers.rb): on create either
// `files` (an array of {file_path, content}) or the older `content` with `file_name`, exactly one; on
// update `files` with an action each (create, update, delete, move; none: update or create) or `content`/`file_name` for a
// snippet of one file. Grape's words for what is wrong, naming the parameter.
import { BadRequestError, ParamError } from '../platform/errors.js';
import { longerThan } from '../platform/http/params.js';
import type { SnippetFileEncoding } from '../platform/db/tables/snippets.js';
import { fileSize } from './binary-files.js';

/** GitLab's Snippet.max_file_limit. */
export const MAX_FILES = 10;
/** Characters of all files of a snippet together (GitLab's snippet_size_limit is 50 MB; Kiln keeps the text in its database). */
export const MAX_CONTENT = 10 * 1024 * 1024;
/** The name GitLab gives a file sent without one (snippetfile1.txt, …). */
export const defaultFileName = (index: number) => `snippetfile${index + 1}.txt`;

export interface SnippetFile {
  path: string;
  content: string;
  /** `base64` for a binary file (only a push makes one); text when absent. */
  encoding?: SnippetFileEncoding;
}

/** `upsert`: a file sent without an action — an update of the file it names, or a new file. */
export type FileAction =
  | { action: 'create' | 'update' | 'upsert'; path: string; previousPath?: string; content: string }
  | { action: 'delete'; path: string }
  | { action: 'move'; path: string; previousPath: string; content?: string };

function text(value: unknown, name: string, required: boolean): string | undefined {
  if (value === undefined || value === null) {
    if (required) throw new ParamError(`${name} is missing`);
    return undefined;
  }
  if (typeof value !== 'string' || value.includes('\0')) throw new ParamError(`${name} is invalid`);
  return value;
}

/** A file path inside a snippet: relative, no `..` segment, no control characters, at most 255 characters. */
export function filePath(value: unknown, name: string): string {
  const path = text(value, name, true)!;
  if (path.trim() === '') throw new ParamError(`${name} is empty`);
  // eslint-disable-next-line no-control-regex
  if (path.startsWith('/') || path.split('/').some((segment) => segment === '..' || segment === '') || /[\u0000-\u001f\u007f]/.test(path) || longerThan(path, 255)) {
    throw new ParamError(`${name} is invalid`);
  }
  return path;
}

function entries(files: unknown): Record<string, unknown>[] {
  if (!Array.isArray(files) || files.length === 0 || files.some((file) => !file || typeof file !== 'object' || Array.isArray(file))) throw new ParamError('files is invalid');
  if (files.length > MAX_FILES) throw new BadRequestError(`Snippet files count exceeded the maximum of ${MAX_FILES}`);
  return files as Record<string, unknown>[];
}

export function checkTotal(files: SnippetFile[]): SnippetFile[] {
  const total = files.reduce((sum, file) => sum + fileSize(file), 0);
  if (total > MAX_CONTENT) throw new BadRequestError(`Snippet content is too large: ${total} characters, the maximum is ${MAX_CONTENT}`);
  if (new Set(files.map((file) => file.path)).size !== files.length) throw new BadRequestError('Snippet files must have unique paths');
  // A file's path may not be another file's directory: the snippet's repository could not hold both.
  const paths = new Set(files.map((file) => file.path));
  for (const file of files) {
    const segments = file.path.split('/');
    for (let depth = 1; depth < segments.length; depth += 1) {
      const directory = segments.slice(0, depth).join('/');
      if (paths.has(directory)) throw new BadRequestError(`A file with this name already exists as a directory of ${file.path}: ${directory}`);
    }
  }
  return files;
}

/** The files of a new snippet. */
export function filesToCreate(input: { files?: unknown; content?: unknown; file_name?: unknown }): SnippetFile[] {
  if (input.files !== undefined && input.content !== undefined) throw new ParamError('content, files are mutually exclusive');
  if (input.files === undefined && input.content === undefined) throw new ParamError('content, files are missing, exactly one parameter must be provided');
  if (input.content !== undefined) {
    const content = text(input.content, 'content', true)!;
    if (content === '') throw new ParamError('content is empty');
    const name = text(input.file_name, 'file_name', false);
    return checkTotal([{ path: name ? filePath(name, 'file_name') : defaultFileName(0), content }]);
  }
  return checkTotal(entries(input.files).map((file, index) => {
    const content = text(file.content, `files[${index}][content]`, true)!;
    if (content === '') throw new ParamError(`files[${index}][content] is empty`);
    return { path: file.file_path === undefined || file.file_path === '' ? defaultFileName(index) : filePath(file.file_path, `files[${index}][file_path]`), content };
  }));
}

const ACTIONS = ['create', 'update', 'delete', 'move'] as const;

/** The `files` of an update, each with its action. */
export function fileActions(files: unknown): FileAction[] {
  return entries(files).map((file, index): FileAction => {
    const at = (field: string) => `files[${index}][${field}]`;
    // Without an action a file updates the file it names, or is a new one (clients that send the
    // files as they read them, without GitLab's `action`; docs/snippets.md).
    const action = text(file.action, at('action'), false) ?? 'upsert';
    if (action !== 'upsert' && !(ACTIONS as readonly string[]).includes(action)) throw new ParamError(`${at('action')} does not have a valid value`);
    const path = filePath(file.file_path ?? file.previous_path, at('file_path'));
    const previousPath = file.previous_path === undefined || file.previous_path === null ? undefined : filePath(file.previous_path, at('previous_path'));
    if (action === 'delete') return { action, path };
    const content = text(file.content, at('content'), action !== 'move');
    if (action === 'move') {
      if (!previousPath) throw new ParamError(`${at('previous_path')} is missing`);
      return { action, path, previousPath, content };
    }
    return { action: action as 'create' | 'update' | 'upsert', path, previousPath, content: content! };
  });
}

/** The files after the actions, in order (new files last). A refused action is a 400 naming the path. */
export function applyActions(current: SnippetFile[], actions: FileAction[]): SnippetFile[] {
  const files = current.map((file) => ({ ...file }));
  const index = (path: string) => files.findIndex((file) => file.path === path);
  for (const given of actions) {
    const change = given.action === 'upsert' ? { ...given, action: index(given.previousPath ?? given.path) >= 0 ? ('update' as const) : ('create' as const) } : given;
    const existing = index(change.action === 'create' || change.action === 'delete' ? change.path : change.previousPath ?? change.path);
    if (change.action === 'create') {
      if (existing >= 0) throw new BadRequestError(`A file with this name already exists: ${change.path}`);
      files.push({ path: change.path, content: change.content });
      continue;
    }
    if (existing < 0) throw new BadRequestError(`A file with this name doesn't exist: ${change.action === 'delete' ? change.path : change.previousPath ?? change.path}`);
    if (change.action === 'delete') {
      files.splice(existing, 1);
      continue;
    }
    if (change.path !== files[existing].path && index(change.path) >= 0) throw new BadRequestError(`A file with this name already exists: ${change.path}`);
    // New content makes the file text; a move without content keeps it as it is (a binary file too).
    files[existing] = change.content === undefined ? { ...files[existing], path: change.path } : { path: change.path, content: change.content };
  }
  if (files.length === 0) throw new BadRequestError('Snippet must have at least one file');
  if (files.length > MAX_FILES) throw new BadRequestError(`Snippet files count exceeded the maximum of ${MAX_FILES}`);
  return checkTotal(files);
}
