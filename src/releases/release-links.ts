// Asset links of a release (GitLab's Releases::Link): a name and an http, https or ftp URL, each unique
// in the release; an optional direct asset path (`/binaries/app`, unique too) that Kiln serves as a
// redirect to the URL; a type among GitLab's four.
import type { Executor } from '../platform/db/database.js';
import { ValidationError } from '../platform/errors.js';
import type { ReleaseLinkType } from '../platform/db/tables/releases.js';
import type { ReleaseLinkRow } from './finder.js';

export const LINK_TYPES = ['other', 'runbook', 'image', 'package'] as const;

export interface LinkInput {
  name?: string;
  url?: string;
  /** GitLab's `direct_asset_path` (or its deprecated name `filepath`). */
  filepath?: string | null;
  linkType?: ReleaseLinkType;
}

// GitLab's Releases::Link::FILEPATH_REGEX: slash-separated word characters, dots and dashes, ending in a letter or digit.
const FILEPATH = /^\/(?:[-.\w]+\/?)*[\da-zA-Z]+$/;

export function normalFilepath(path: string | null | undefined): string | null | undefined {
  if (path === undefined || path === null) return path;
  if (path.trim() === '') return null;
  return path.startsWith('/') ? path : `/${path}`;
}

function validUrl(url: string): boolean {
  try {
    return ['http:', 'https:', 'ftp:'].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

/** The link's own problems, before any other link of the release is read. */
export function linkFieldProblems(link: Required<Pick<LinkInput, 'name' | 'url'>> & LinkInput): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (!link.name.trim()) errors.name = ["can't be blank"];
  else if ([...link.name].length > 255) errors.name = ['is too long (maximum is 255 characters)'];
  if (!link.url.trim()) errors.url = ["can't be blank"];
  else if (link.url.length > 2048 || !validUrl(link.url)) errors.url = ['is blocked: Only allowed schemes are http, https, ftp'];
  if (link.filepath && (link.filepath.length > 128 || !FILEPATH.test(link.filepath))) errors.filepath = ['is in an invalid format'];
  return errors;
}

/** The link's problems, its own and against the release's other links (`except`: the link being changed). */
export async function linkProblems(db: Executor, releaseId: number, link: Required<Pick<LinkInput, 'name' | 'url'>> & LinkInput, exceptId?: number): Promise<Record<string, string[]>> {
  const errors = linkFieldProblems(link);
  const others = (await db.selectFrom('release_links').selectAll().where('release_id', '=', releaseId).execute()).filter((row) => Number(row.id) !== exceptId);
  if (!errors.name && others.some((row) => row.name === link.name)) errors.name = ['has already been taken'];
  if (!errors.url && others.some((row) => row.url === link.url)) errors.url = ['has already been taken'];
  if (link.filepath && !errors.filepath && others.some((row) => row.filepath === link.filepath)) errors.filepath = ['has already been taken'];
  return errors;
}

export async function insertLink(db: Executor, releaseId: number, link: Required<Pick<LinkInput, 'name' | 'url'>> & LinkInput, now: number): Promise<ReleaseLinkRow> {
  const errors = await linkProblems(db, releaseId, link);
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return db.insertInto('release_links')
    .values({ release_id: releaseId, name: link.name, url: link.url, filepath: link.filepath ?? null, link_type: link.linkType ?? 'other', created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}
