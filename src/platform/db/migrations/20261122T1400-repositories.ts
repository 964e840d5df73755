import { sql, type Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('repositories'))
    .addColumn('container_type', 'text', (c) => c.notNull()) // 'group' (its wiki) | 'project'
    .addColumn('container_id', 'bigint', (c) => c.notNull())
    .addColumn('shard', 'text', (c) => c.notNull())
    .addColumn('disk_path', 'text', (c) => c.notNull())
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .addUniqueConstraint('repositories_container', ['container_type', 'container_id'])
    .execute();
  // The bulk move walks every group repository on one shard.
  await db.schema.createIndex('repositories_shard').on('repositories').columns(['container_type', 'shard', 'container_id']).execute();

  // Pushes in flight, so a move waits for them before copying (GitLab's reference counter). A lease
  // expires, so a node that died mid-push cannot block moves for ever.
  await withId(db, db.schema.createTable('repository_push_leases'))
    .addColumn('container_type', 'text', (c) => c.notNull())
    .addColumn('container_id', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('push_leases_container').on('repository_push_leases').columns(['container_type', 'container_id', 'expires_at']).execute();

  await withId(db, db.schema.createTable('group_repository_storage_moves'))
    .addColumn('group_id', 'bigint', (c) => c.notNull().references('namespaces.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('source_storage_name', 'text', (c) => c.notNull())
    .addColumn('destination_storage_name', 'text', (c) => c.notNull())
    .addColumn('error_message', 'text')
    .addColumn('created_at', TIME, (c) => c.notNull())
    .addColumn('updated_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('group_moves_created').on('group_repository_storage_moves').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('group_moves_group').on('group_repository_storage_moves').columns(['group_id', 'created_at', 'id']).execute();
  // One unfinished move per group, enforced by the database (two nodes scheduling at once stay correct).
  await db.schema
    .createIndex('group_moves_one_unfinished')
    .on('group_repository_storage_moves')
    .column('group_id')
    .unique()
    .where(sql<boolean>`state in ('initial', 'scheduled', 'started', 'replicated')`)
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
