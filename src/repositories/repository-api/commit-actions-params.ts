// The `actions` of POST /projects/:id/repository/commits as Grape validates them (lib/api/commits.rb):
// every problem named by its place, `actions[0][file_path] is missing`, and reported together.
import { ParamError } from '../../platform/errors.js';
import type { ActionName, FileAction } from './file-actions.js';
import { decodeContent } from './file-params.js';

const ACTIONS: readonly ActionName[] = ['create', 'update', 'move', 'delete', 'chmod'];
const TRUE = /^(true|t|yes|y|on|1)$/i;
const FALSE = /^(false|f|no|n|off|0)$/i;

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

function flag(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && TRUE.test(value)) return true;
  if (typeof value === 'string' && FALSE.test(value)) return false;
  return undefined;
}

export function parseCommitActions(raw: unknown): FileAction[] {
  if (raw === undefined || raw === null) throw new ParamError('actions is missing');
  // A form body sends actions as an indexed hash (`actions[0][action]`); JSON as an array.
  const list = Array.isArray(raw) ? raw : typeof raw === 'object' ? Object.values(raw as object) : null;
  if (!list || list.some((item) => !item || typeof item !== 'object' || Array.isArray(item))) throw new ParamError('actions is invalid');
  const problems: string[] = [];
  const actions = list.map((item: Record<string, unknown>, index) => {
    const name = (field: string) => `actions[${index}][${field}]`;
    const action = text(item.action);
    const filePath = text(item.file_path);
    const encoding = item.encoding === undefined ? 'text' : text(item.encoding);
    if (action === undefined) problems.push(`${name('action')} is missing`);
    else if (!ACTIONS.includes(action as ActionName)) problems.push(`${name('action')} does not have a valid value`);
    if (filePath === undefined) problems.push(`${name('file_path')} is missing`);
    if (encoding !== 'text' && encoding !== 'base64') problems.push(`${name('encoding')} does not have a valid value`);
    if (action === 'move' && text(item.previous_path) === undefined) problems.push(`${name('previous_path')} is missing`);
    if (action === 'update' && text(item.content) === undefined) problems.push(`${name('content')} is missing`);
    const executeFilemode = flag(item.execute_filemode);
    if (action === 'chmod' && item.execute_filemode === undefined) problems.push(`${name('execute_filemode')} is missing`);
    else if (action === 'chmod' && executeFilemode === undefined) problems.push(`${name('execute_filemode')} is invalid`);
    const content = ['create', 'update', 'move'].includes(action ?? '') ? text(item.content) : undefined;
    return {
      action: action as ActionName,
      filePath: filePath ?? '',
      previousPath: action === 'move' ? text(item.previous_path) : undefined,
      content: content === undefined ? undefined : decodeContent(content, encoding),
      // Only chmod considers the flag (doc/api/commits.md); last_commit_id only where a file must exist.
      executeFilemode: action === 'chmod' ? executeFilemode : undefined,
      lastCommitId: ['update', 'move', 'delete', 'chmod'].includes(action ?? '') ? text(item.last_commit_id) : undefined,
    };
  });
  if (problems.length > 0) throw new ParamError(problems.join(', '));
  return actions;
}

/** Grape's DateTime coercion of `since` and `until`. */
export function parseDateTime(name: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value.trim());
  if (value.trim() === '' || Number.isNaN(date.getTime())) throw new ParamError(`${name} is invalid`);
  return date;
}
