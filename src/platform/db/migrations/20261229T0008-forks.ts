import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// Forks (issue 34), as GitLab keeps them: a fork network per upstream project (`fork_networks`, its
// root the project first forked), and one `fork_network_members` row per project in it (the root
// too). A merge request may go between any two projects of one network. The project a fork came
// from is the fork's own `projects.forked_from_project_id`, so the Project entity's
// `forked_from_project` needs no statement beyond the project's own row for any project that is not
// a fork. Deleting a project removes its membership; its forks stay in the network with no
// `forked_from_project_id`, as GitLab leaves them. `projects.forks_count` counts the direct forks,
// kept in the transactions that fork, link, unlink and delete (GitLab's cached ForksCountService).
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('fork_networks'))
    .addColumn('root_project_id', 'bigint', (c) => c.references('projects.id').onDelete('set null'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('fork_network_members'))
    .addColumn('fork_network_id', 'bigint', (c) => c.notNull().references('fork_networks.id').onDelete('cascade'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('fork_network_members_project').on('fork_network_members').column('project_id').unique().execute();
  await db.schema.createIndex('fork_network_members_network').on('fork_network_members').column('fork_network_id').execute();

  await db.schema.alterTable('projects').addColumn('forks_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('projects').addColumn('forked_from_project_id', 'bigint', (c) => c.references('projects.id').onDelete('set null')).execute();
  // GET /projects/:id/forks: the direct forks of a project.
  await db.schema.createIndex('projects_forked_from').on('projects').column('forked_from_project_id').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
