// A job's log (GitLab's trace), kept as GitLab keeps a running job's log: in fixed 128 KiB chunks
// (ci_build_trace_chunks), numbered from 0, every one full but the last. An append rewrites only the
// chunks its bytes (and the masking of a secret split between two appends) reach, not the whole log;
// readers take chunks in order, a few at a time, and never need the whole log in memory.
//
// Offsets here are the stored log's (after masking), not the runner's (ci_builds.trace_size).
// Chunks read by one statement are one consistent view; a reader that takes a log over several
// statements stops at the first chunk that is not full, which was the last when it was read.
import { Readable } from 'node:stream';
import type { Executor } from '../../platform/db/database.js';
import { appendMasked } from '../cicd-variables/mask-trace.js';

export const TRACE_CHUNK_SIZE = 128 * 1024;
/** Chunks a streaming reader takes per statement (1 MiB). */
const CHUNKS_PER_READ = 8;

interface Chunk {
  index: number;
  data: Buffer;
}

// Both drivers hand a blob as a Buffer already; a plain Uint8Array is wrapped, not copied. A log
// streams in at megabytes a second, and every copy is garbage the collector must sweep.
const bufferOf = (data: Uint8Array): Buffer => (Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength));
const chunkOf = (row: { chunk_index: number; data: Uint8Array }): Chunk => ({ index: Number(row.chunk_index), data: bufferOf(row.data) });

async function chunksFrom(db: Executor, buildId: number, first: number, limit?: number): Promise<Chunk[]> {
  let query = db.selectFrom('ci_build_trace_chunks').select(['chunk_index', 'data']).where('build_id', '=', buildId).where('chunk_index', '>=', first).orderBy('chunk_index');
  if (limit !== undefined) query = query.limit(limit);
  return (await query.execute()).map(chunkOf);
}

/** The last chunk's index and length (not its bytes): null when there is no log. */
async function lastChunkLength(db: Executor, buildId: number): Promise<{ index: number; length: number } | null> {
  const row = await db
    .selectFrom('ci_build_trace_chunks')
    .select((eb) => ['chunk_index', eb.fn<number>('length', ['data']).as('length')])
    .where('build_id', '=', buildId)
    .orderBy('chunk_index', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { index: Number(row.chunk_index), length: Number(row.length) } : null;
}

/**
 * Appends `data` to the stored log, masking `secrets` in the new bytes and in the stored end that a
 * secret's start may lie in. Only the chunks from that end on are read and written: a runner's
 * appends fill whole chunks, so with no secret the usual append reads nothing and inserts one chunk.
 * The caller holds the job's row (the guarded update of ci_builds.trace_size), so appends to one log
 * never interleave.
 */
export async function appendTraceChunks(trx: Executor, buildId: number, data: Buffer, secrets: readonly string[]): Promise<void> {
  const last = await lastChunkLength(trx, buildId);
  const size = last ? last.index * TRACE_CHUNK_SIZE + last.length : 0;
  const reach = secrets.length ? Math.max(...secrets.map((secret) => Buffer.byteLength(secret))) - 1 : 0;
  // The first chunk holding a byte that changes: the one the log ends in (the next one when the log
  // ends on a chunk's end), or earlier for a long secret.
  const first = Math.floor(Math.max(0, size - reach) / TRACE_CHUNK_SIZE);
  const kept = last && first <= last.index ? await chunksFrom(trx, buildId, first, last.index - first + 1) : [];
  const combined = kept.length === 0 && secrets.length === 0 ? data : appendMasked(Buffer.concat(kept.map((chunk) => chunk.data)), data, secrets);
  for (let offset = 0, index = first; offset < combined.length; offset += TRACE_CHUNK_SIZE, index += 1) {
    const piece = combined.subarray(offset, offset + TRACE_CHUNK_SIZE);
    const before = kept[index - first];
    if (!before) await trx.insertInto('ci_build_trace_chunks').values({ build_id: buildId, chunk_index: index, data: piece }).execute();
    else if (!before.data.equals(piece)) await trx.updateTable('ci_build_trace_chunks').set({ data: piece }).where('build_id', '=', buildId).where('chunk_index', '=', index).execute();
  }
  // Masking shortens (a secret is at least as long as [MASKED]): chunks past the new end go.
  const chunks = Math.ceil(combined.length / TRACE_CHUNK_SIZE);
  if (last && first + chunks <= last.index) await trx.deleteFrom('ci_build_trace_chunks').where('build_id', '=', buildId).where('chunk_index', '>=', first + chunks).execute();
}

/** Deletes a job's log; the number of chunks deleted. */
export async function deleteTrace(db: Executor, buildId: number): Promise<number> {
  const deleted = await db.deleteFrom('ci_build_trace_chunks').where('build_id', '=', buildId).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}

/** The log's chunks in order, CHUNKS_PER_READ a statement, until the last (the first not full). */
export async function* traceChunks(db: Executor, buildId: number): AsyncGenerator<Buffer> {
  for (let next = 0; ; ) {
    const chunks = await chunksFrom(db, buildId, next, CHUNKS_PER_READ);
    for (const [position, chunk] of chunks.entries()) {
      // A gap (never written that way; a log erased while read) ends the log as much as a short chunk.
      if (chunk.index !== next + position) return;
      yield chunk.data;
      if (chunk.data.length < TRACE_CHUNK_SIZE) return;
    }
    if (chunks.length < CHUNKS_PER_READ) return;
    next += CHUNKS_PER_READ;
  }
}

/** The whole log as a stream of its chunks (the API's trace, the raw log page). */
export function traceStream(db: Executor, buildId: number): Readable {
  return Readable.from(traceChunks(db, buildId), { objectMode: false });
}

export interface TraceSlice {
  /** The stored log's length. */
  size: number;
  /** Where `data` starts in the log. */
  start: number;
  data: Buffer;
}

/** The log's last `bytes` bytes at least (from a chunk's start), read in one statement. */
export async function readTraceTail(db: Executor, buildId: number, bytes: number): Promise<TraceSlice> {
  const rows = await db
    .selectFrom('ci_build_trace_chunks')
    .select(['chunk_index', 'data'])
    .where('build_id', '=', buildId)
    .orderBy('chunk_index', 'desc')
    .limit(Math.ceil(bytes / TRACE_CHUNK_SIZE) + 1)
    .execute();
  const chunks = rows.map(chunkOf).reverse();
  if (chunks.length === 0) return { size: 0, start: 0, data: Buffer.alloc(0) };
  const start = chunks[0].index * TRACE_CHUNK_SIZE;
  const data = Buffer.concat(chunks.map((chunk) => chunk.data));
  return { size: start + data.length, start, data };
}

/**
 * The log from byte `offset` to its end, in one statement, when that is at most `most` bytes; null
 * when more is there or the log is shorter than `offset` (erased): the caller reads the tail instead.
 * `start` is at or before `offset` (the start of the chunk holding the byte before it).
 */
export async function readTraceFrom(db: Executor, buildId: number, offset: number, most: number): Promise<TraceSlice | null> {
  const first = offset > 0 ? Math.floor((offset - 1) / TRACE_CHUNK_SIZE) : 0;
  const limit = Math.ceil(most / TRACE_CHUNK_SIZE) + 2;
  const chunks = await chunksFrom(db, buildId, first, limit);
  if (chunks.length === limit) return null;
  const start = first * TRACE_CHUNK_SIZE;
  if (chunks.length === 0) return offset === 0 ? { size: 0, start: 0, data: Buffer.alloc(0) } : null;
  const data = Buffer.concat(chunks.map((chunk) => chunk.data));
  const size = start + data.length;
  if (chunks[0].index !== first || size < offset || size - offset > most) return null;
  return { size, start, data };
}
