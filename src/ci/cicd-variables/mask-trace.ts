// Masked variables never reach a stored job log: whatever the runner sends, each value of a masked
// variable the job was given is replaced by `[MASKED]` as the log is appended. A value may arrive
// split over two appends, so the end of the stored log that could hold its start is masked again
// with the new bytes. Offsets stay the runner's: ci_builds.trace_size counts the bytes it sent.
import type { SecretBox } from '../../platform/crypto.js';
import type { Executor } from '../../platform/db/database.js';
import { settingsVariables } from './job-variables.js';

const MASK = Buffer.from('[MASKED]');

/** The values of the masked variables a job gets; a job of a deleted project has none. */
export async function maskedValuesOf(db: Executor, box: SecretBox, buildId: number): Promise<string[]> {
  const row = await db
    .selectFrom('ci_builds')
    .innerJoin('projects', 'projects.id', 'ci_builds.project_id')
    .select(['projects.id', 'projects.namespace_id', 'ci_builds.protected', 'ci_builds.environment'])
    .where('ci_builds.id', '=', buildId)
    .executeTakeFirst();
  if (!row) return [];
  const variables = await settingsVariables(db, box, { id: Number(row.id), namespace_id: Number(row.namespace_id) }, { protected: Number(row.protected) === 1, environment: row.environment });
  return [...new Set(variables.filter((variable) => variable.masked && variable.value !== '').map((variable) => variable.value))];
}

/** Every whole occurrence of a secret starting at or after `from` replaced by `[MASKED]`, longest secrets first. */
export function maskSecrets(data: Buffer, from: number, secrets: readonly string[]): Buffer {
  let out = data;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    const needle = Buffer.from(secret);
    const parts: Buffer[] = [];
    let cursor = 0;
    let at = out.indexOf(needle, from);
    while (at !== -1) {
      parts.push(out.subarray(cursor, at), MASK);
      cursor = at + needle.length;
      at = out.indexOf(needle, cursor);
    }
    if (parts.length) out = Buffer.concat([...parts, out.subarray(cursor)]);
  }
  return out;
}

/** The stored log after appending `data`: the new bytes and the stored end they may complete, masked. */
export function appendMasked(stored: Buffer, data: Buffer, secrets: readonly string[]): Buffer {
  const combined = Buffer.concat([stored, data]);
  if (secrets.length === 0) return combined;
  const longest = Math.max(...secrets.map((secret) => Buffer.byteLength(secret)));
  return maskSecrets(combined, Math.max(0, stored.length - longest + 1), secrets);
}
