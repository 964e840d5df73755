// A container's repository is created when first needed (first clone, fetch or push, or a move):
// the row records its shard, then `git init --bare` makes it on disk. Both steps are idempotent, so
// two requests racing, or a crash between them, end with one row and one repository.
import { existsSync } from 'node:fs';
import type { Selectable } from 'kysely';
import type { Deps } from '../platform/deps.js';
import { isUniqueViolation } from '../platform/db/database.js';
import type { RepositoriesTable, RepositoryContainerType } from '../platform/db/tables/repositories.js';
import { sha256Hex } from '../platform/crypto.js';
import { pickShard, repositoryPath } from './shards.js';
import { initBare } from './git.js';

export type RepositoryRow = Selectable<RepositoriesTable>;

export interface Container {
  type: RepositoryContainerType;
  id: number;
  defaultBranch?: string;
}

/**
 * GitLab's hashed storage layout (`@hashed/ab/cd/<sha256 of id>`, a project's wiki beside it as
 * `….wiki.git`): paths never come from user input.
 */
export function diskPathFor(container: Container): string {
  const hash = sha256Hex(String(container.id));
  const prefix = `${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`;
  if (container.type === 'group') return `@groups/${prefix}.wiki.git`;
  if (container.type === 'snippet') return `@snippets/${prefix}.git`;
  return container.type === 'project_wiki' ? `@hashed/${prefix}.wiki.git` : `@hashed/${prefix}.git`;
}

export async function findRepository(deps: Deps, type: RepositoryContainerType, id: number): Promise<RepositoryRow | undefined> {
  return deps.db.selectFrom('repositories').selectAll().where('container_type', '=', type).where('container_id', '=', id).executeTakeFirst();
}

/** Where a new repository goes: a project's wiki beside the project's repository (GitLab keeps both on the project's storage), else by weight. */
async function shardFor(deps: Deps, container: Container): Promise<string> {
  if (container.type === 'project_wiki') {
    const code = await findRepository(deps, 'project', container.id);
    if (code && deps.config.storages.some((shard) => shard.name === code.shard)) return code.shard;
  }
  return pickShard(deps.config.storages).name;
}

export async function ensureRepository(deps: Deps, container: Container): Promise<{ row: RepositoryRow; path: string }> {
  let row = await findRepository(deps, container.type, container.id);
  if (!row) {
    const now = deps.clock.now();
    try {
      row = await deps.db
        .insertInto('repositories')
        .values({
          container_type: container.type,
          container_id: container.id,
          shard: await shardFor(deps, container),
          disk_path: diskPathFor(container),
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      row = await findRepository(deps, container.type, container.id);
      if (!row) throw error;
    }
  }
  const path = repositoryPath(deps.config.storages, row.shard, row.disk_path);
  if (!existsSync(`${path}/HEAD`)) await initBare(path, container.defaultBranch ?? 'main');
  return { row, path };
}
