// Parsing what the releases API takes beyond the route kit's types: `released_at` as ISO 8601, the
// milestones named by title (the project's and its groups') or by id, and `assets[links]`.
import type { Executor } from '../platform/db/database.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import { ParamError, StatusError } from '../platform/errors.js';
import { groupAndAncestorIds } from '../labels/api.js';
import { LINK_TYPES, normalFilepath, type LinkInput } from './release-links.js';

/** An ISO 8601 date-time (as Grape's DateTime), or a ParamError naming the parameter. */
export function parseTime(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(value.trim()) ? Date.parse(value.trim()) : Number.NaN;
  if (!Number.isFinite(ms)) throw new ParamError(`${name} is invalid`);
  return ms;
}

/** The project's and its ancestor groups' milestones named by title or id; GitLab's 400 naming those not found. */
export async function milestoneIds(db: Executor, project: ProjectRow, titles: string[] | undefined, ids: string[] | undefined): Promise<number[] | undefined> {
  if (titles === undefined && ids === undefined) return undefined;
  const groups = await groupAndAncestorIds(db, Number(project.namespace_id));
  const candidates = await db.selectFrom('milestones').select(['id', 'title'])
    .where((eb) => eb.or([eb('project_id', '=', Number(project.id)), ...(groups.length ? [eb('group_id', 'in', groups)] : [])]))
    .execute();
  const found: number[] = [];
  const missing: string[] = [];
  for (const title of titles ?? []) {
    const match = candidates.find((row) => row.title === title);
    if (match) found.push(Number(match.id));
    else missing.push(title);
  }
  for (const id of ids ?? []) {
    const match = candidates.find((row) => String(row.id) === String(id));
    if (match) found.push(Number(match.id));
    else missing.push(String(id));
  }
  if (missing.length) throw new StatusError(400, `Milestone(s) not found: ${missing.join(', ')}`);
  return [...new Set(found)];
}

function text(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if ((typeof value !== 'string' && typeof value !== 'number') || String(value).includes('\u0000')) throw new ParamError(`${name} is invalid`);
  return String(value);
}

/** `assets[links]`: an array of {name, url, direct_asset_path | filepath, link_type}. */
export function parseLinks(assets: unknown): Array<LinkInput & { name: string; url: string }> {
  if (assets === undefined || assets === null) return [];
  if (typeof assets !== 'object' || Array.isArray(assets)) throw new ParamError('assets is invalid');
  const links = (assets as Record<string, unknown>).links;
  if (links === undefined) return [];
  const list = Array.isArray(links) ? links : links && typeof links === 'object' ? Object.values(links) : null;
  if (!list || list.length > 100) throw new ParamError('assets[links] is invalid');
  return list.map((link) => {
    if (!link || typeof link !== 'object' || Array.isArray(link)) throw new ParamError('assets[links] is invalid');
    const raw = link as Record<string, unknown>;
    const name = text(raw.name, 'assets[links][name]');
    const url = text(raw.url, 'assets[links][url]');
    if (name === undefined) throw new ParamError('assets[links][name] is missing');
    if (url === undefined) throw new ParamError('assets[links][url] is missing');
    const linkType = text(raw.link_type, 'assets[links][link_type]');
    if (linkType !== undefined && !(LINK_TYPES as readonly string[]).includes(linkType)) throw new ParamError('assets[links][link_type] does not have a valid value');
    return { name, url, filepath: normalFilepath(text(raw.direct_asset_path ?? raw.filepath, 'assets[links][direct_asset_path]')), linkType: linkType as LinkInput['linkType'] };
  });
}
