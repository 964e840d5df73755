// GitLab's diff position (Gitlab::Diff::Position and its formatters) as a client sends it with a new
// thread or draft note (lib/api/discussions.rb: `position` with base_sha, start_sha, head_sha,
// position_type text|image|file, paths, lines, image geometry, a multi-line `line_range`), checked in
// Grape's words, and as Kiln stores and shows it (Position#to_h). Pure: whether the position is in
// the merge request's diff is validate-position.ts.
import { ParamError } from '../../platform/errors.js';

export type PositionType = 'text' | 'image' | 'file';

export interface LineRangeEnd {
  line_code: string | null;
  type: 'new' | 'old' | null;
  old_line: number | null;
  new_line: number | null;
}

export interface Position {
  base_sha: string;
  start_sha: string;
  head_sha: string;
  old_path: string | null;
  new_path: string | null;
  position_type: PositionType;
  old_line?: number | null;
  new_line?: number | null;
  line_range?: { start: LineRangeEnd; end: LineRangeEnd } | null;
  ignore_whitespace_change?: boolean;
  width?: number | null;
  height?: number | null;
  x?: number | null;
  y?: number | null;
}

const SHA = /^[0-9a-f]{40}$/;
const TYPES: readonly PositionType[] = ['text', 'image', 'file'];
const MAX_PATH = 4096;

/** Form fields `position[base_sha]`, `position[line_range][start][new_line]` gathered into one object (JSON bodies already are). */
export function nestedParam(input: Record<string, unknown>, name: string): unknown {
  if (input[name] !== undefined) return input[name];
  const prefix = `${name}[`;
  const keys = Object.keys(input).filter((key) => key.startsWith(prefix));
  if (keys.length === 0) return undefined;
  const root: Record<string, unknown> = {};
  for (const key of keys) {
    const path = key.slice(name.length).match(/\[([^\]]*)\]/g)?.map((part) => part.slice(1, -1)) ?? [];
    if (path.length === 0 || path.length > 3) continue;
    let node = root;
    for (const part of path.slice(0, -1)) {
      const next = node[part];
      node = (next && typeof next === 'object' ? next : (node[part] = {})) as Record<string, unknown>;
    }
    node[path[path.length - 1]] = input[key];
  }
  return root;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Grape's coercions of one field, its failures collected as `position[name] is invalid`. */
class Reader {
  readonly problems: string[] = [];
  constructor(private readonly source: Record<string, unknown>, private readonly prefix: string) {}

  string(name: string, required = false): string | null {
    const value = this.source[name];
    if (value === undefined || value === null) {
      if (required) this.problems.push(`${this.prefix}[${name}] is missing`);
      return null;
    }
    if (typeof value !== 'string' && typeof value !== 'number') {
      this.problems.push(`${this.prefix}[${name}] is invalid`);
      return null;
    }
    const text = String(value);
    if (text.length > MAX_PATH) {
      this.problems.push(`${this.prefix}[${name}] is invalid`);
      return null;
    }
    return text;
  }

  integer(name: string): number | null {
    const value = this.source[name];
    if (value === undefined || value === null || value === '') return null;
    const number = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d{1,9}$/.test(value.trim()) ? Number(value.trim()) : NaN;
    if (!Number.isSafeInteger(number) || number < 0 || number > 100_000_000) {
      this.problems.push(`${this.prefix}[${name}] is invalid`);
      return null;
    }
    return number;
  }
}

function lineRangeEnd(value: unknown, prefix: string, problems: string[]): LineRangeEnd | null {
  if (value === undefined || value === null) return null;
  if (!isObject(value)) {
    problems.push(`${prefix} is invalid`);
    return null;
  }
  const reader = new Reader(value, prefix);
  const type = reader.string('type');
  if (type !== null && type !== 'new' && type !== 'old' && type !== '') reader.problems.push(`${prefix}[type] does not have a valid value`);
  const end: LineRangeEnd = {
    line_code: reader.string('line_code'),
    type: type === 'new' || type === 'old' ? type : null,
    old_line: reader.integer('old_line'),
    new_line: reader.integer('new_line'),
  };
  problems.push(...reader.problems);
  return end;
}

/**
 * The `position` parameter, or a 400 in Grape's words naming what is wrong (`position[head_sha] is
 * missing`, `position[new_line] is invalid`). SHAs are full commit ids (GitLab stores what it is given;
 * a short or unknown id could never match a version of the diff).
 */
export function parsePosition(value: unknown, name = 'position'): Position {
  if (!isObject(value)) throw new ParamError(`${name} is invalid`);
  const reader = new Reader(value, name);
  const shas = ['base_sha', 'start_sha', 'head_sha'].map((field) => reader.string(field, true));
  const type = reader.string('position_type', true);
  const problems = reader.problems;
  shas.forEach((sha, index) => {
    if (sha !== null && !SHA.test(sha)) problems.push(`${name}[${['base_sha', 'start_sha', 'head_sha'][index]}] is invalid`);
  });
  if (type !== null && !TYPES.includes(type as PositionType)) problems.push(`${name}[position_type] does not have a valid value`);
  const position: Position = {
    base_sha: shas[0] ?? '',
    start_sha: shas[1] ?? '',
    head_sha: shas[2] ?? '',
    old_path: reader.string('old_path') || null,
    new_path: reader.string('new_path') || null,
    position_type: (type ?? 'text') as PositionType,
  };
  if (position.position_type === 'text') {
    position.old_line = reader.integer('old_line');
    position.new_line = reader.integer('new_line');
    const range = value.line_range;
    if (range !== undefined && range !== null) {
      if (!isObject(range)) problems.push(`${name}[line_range] is invalid`);
      else {
        const start = lineRangeEnd(range.start, `${name}[line_range][start]`, problems);
        const end = lineRangeEnd(range.end, `${name}[line_range][end]`, problems);
        position.line_range = start && end ? { start, end } : null;
      }
    } else position.line_range = null;
    position.ignore_whitespace_change = false;
  } else if (position.position_type === 'image') {
    position.width = reader.integer('width');
    position.height = reader.integer('height');
    position.x = reader.integer('x');
    position.y = reader.integer('y');
  }
  if (problems.length) throw new ParamError([...new Set(problems)].join(', '));
  return position;
}

/** The file a position is on: its new path, or the old one for a deleted file (Position#file_path). */
export function filePath(position: Pick<Position, 'new_path' | 'old_path'>): string {
  return position.new_path ?? position.old_path ?? '';
}

/** Position#complete?: a file, a line (text) or the whole geometry (image), and all three SHAs. */
export function isComplete(position: Position): boolean {
  if (!filePath(position) || !position.base_sha || !position.start_sha || !position.head_sha) return false;
  if (position.position_type === 'text') return position.old_line != null || position.new_line != null;
  if (position.position_type === 'image') return [position.width, position.height, position.x, position.y].every((n) => n != null);
  return true;
}

/** The diff refs a position belongs to. */
export function refsOf(position: Pick<Position, 'base_sha' | 'start_sha' | 'head_sha'>): { base: string; start: string; head: string } {
  return { base: position.base_sha, start: position.start_sha, head: position.head_sha };
}

/** Stored and shown as Position#to_h: GitLab's field order, the formatter's fields only. */
export function positionJson(position: Position): string {
  const base = {
    base_sha: position.base_sha,
    start_sha: position.start_sha,
    head_sha: position.head_sha,
    old_path: position.old_path,
    new_path: position.new_path,
    position_type: position.position_type,
  };
  if (position.position_type === 'text') {
    return JSON.stringify({ ...base, old_line: position.old_line ?? null, new_line: position.new_line ?? null, line_range: position.line_range ?? null, ignore_whitespace_change: false });
  }
  if (position.position_type === 'image') return JSON.stringify({ ...base, width: position.width ?? null, height: position.height ?? null, x: position.x ?? null, y: position.y ?? null });
  return JSON.stringify(base);
}

export function readPosition(text: string | null): Position | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as Position;
  } catch {
    return null;
  }
}
