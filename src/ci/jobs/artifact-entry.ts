// One job's artifacts archive read as GitLab Workhorse reads it: the entries from the zip's central
// directory (names and sizes, nothing inflated), and one entry streamed out of it. The archive is
// fed to fflate's streaming unzip a few KiB at a time and each inflated chunk waits for the reader,
// so a highly compressed entry (a zip bomb) never sits in memory whole: what is held is the
// archive's row plus about one slice's worth of output.
import { Readable } from 'node:stream';
import { Unzip, UnzipInflate, unzipSync } from 'fflate';
import type { Deps } from '../../platform/deps.js';
import { archiveAvailable } from './kept-artifacts.js';

/** 4 KiB of deflate inflates to at most ~4 MiB (deflate's ratio is bounded near 1032:1). */
const SLICE = 4096;

export interface ArchiveEntry {
  name: string;
  size: number;
}

/** The archive of a job whose artifacts have not expired or are kept (GitLab's available_artifacts?), or null. */
export async function availableArchive(deps: Deps, buildId: number): Promise<{ data: Uint8Array; filename: string; size: number; expire_at: number | null } | null> {
  const row = await deps.db
    .selectFrom('ci_job_artifacts')
    .select(['data', 'filename', 'size', 'expire_at'])
    .where('build_id', '=', buildId)
    .where('file_type', '=', 'archive')
    .executeTakeFirst();
  if (!row || !(await archiveAvailable(deps, buildId, row.expire_at))) return null;
  return { data: new Uint8Array(row.data), filename: row.filename, size: Number(row.size), expire_at: row.expire_at === null ? null : Number(row.expire_at) };
}

/** The archive's entries from its central directory; an archive that is no zip lists none. */
export function archiveEntries(data: Uint8Array): ArchiveEntry[] {
  const entries: ArchiveEntry[] = [];
  try {
    unzipSync(data, { filter: (file) => (entries.push({ name: file.name, size: file.originalSize }), false) });
  } catch {
    return [];
  }
  return entries;
}

/**
 * GitLab's Gitlab::Ci::Build::Artifacts::Path#valid?: no NUL byte and no `.` or `..` segment
 * (a leading `./` aside), so a path never climbs out of the archive.
 */
export function validArtifactPath(path: string): boolean {
  if (path.includes('\0')) return false;
  return path.replace(/^\.\//, '').split('/').every((segment) => segment !== '.' && segment !== '..');
}

export function normalisedPath(path: string): string {
  return path.replace(/^\.\//, '').replace(/^\/+/, '');
}

/** The entry's bytes as a stream that inflates only as fast as it is read. */
export function entryStream(data: Uint8Array, name: string): Readable {
  async function* chunks(): AsyncGenerator<Uint8Array> {
    const ready: Uint8Array[] = [];
    let failure: Error | null = null;
    let finished = false;
    const unzip = new Unzip((file) => {
      if (file.name !== name || finished) return;
      file.ondata = (error, chunk, final) => {
        if (error) failure = error;
        else if (chunk.length) ready.push(chunk);
        if (final) finished = true;
      };
      file.start();
    });
    unzip.register(UnzipInflate);
    for (let offset = 0; offset < data.length && !finished; offset += SLICE) {
      unzip.push(data.subarray(offset, offset + SLICE), offset + SLICE >= data.length);
      if (failure) throw failure;
      while (ready.length) yield ready.shift()!;
    }
    while (ready.length) yield ready.shift()!;
  }
  return Readable.from(chunks(), { objectMode: false });
}

/**
 * The content type Workhorse sends an entry with: Go's mime.TypeByExtension for the built-in
 * extensions, else application/octet-stream. It always goes as an attachment, with nosniff.
 */
const TYPES: Record<string, string> = {
  '.avif': 'image/avif', '.css': 'text/css; charset=utf-8', '.gif': 'image/gif', '.htm': 'text/html; charset=utf-8', '.html': 'text/html; charset=utf-8',
  '.jpeg': 'image/jpeg', '.jpg': 'image/jpeg', '.js': 'text/javascript; charset=utf-8', '.json': 'application/json', '.mjs': 'text/javascript; charset=utf-8',
  '.pdf': 'application/pdf', '.png': 'image/png', '.svg': 'image/svg+xml', '.wasm': 'application/wasm', '.webp': 'image/webp', '.xml': 'text/xml; charset=utf-8',
};

export function entryContentType(name: string): string {
  const dot = name.lastIndexOf('.');
  const slash = name.lastIndexOf('/');
  return dot > slash ? (TYPES[name.slice(dot).toLowerCase()] ?? 'application/octet-stream') : 'application/octet-stream';
}

export function attachmentName(name: string): string {
  return `attachment; filename="${name.slice(name.lastIndexOf('/') + 1).replace(/["\\\r\n]/g, '_')}"`;
}
