import { sql, type Kysely } from 'kysely';

// Whether a project may be shared with a group (issue 40): 1 from the first link made until the last
// one is removed, set in the link's own transaction (accounts/share-project.ts). GET /projects/:id
// reads the project's group links only when it is set, so a project shared with no group is answered
// from its look-up alone. A 1 may outlive its links (a group's deletion takes them away): the list is
// then read and found empty. Projects shared already take their 1 here.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('projects').addColumn('has_group_links', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`update projects set has_group_links = 1 where id in (select project_id from project_group_links)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
