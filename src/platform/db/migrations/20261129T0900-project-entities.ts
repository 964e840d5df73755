import type { Kysely } from 'kysely';

// The unfiltered project listing's entities, stored as JSON text beside their rows (issue 20;
// docs/decisions.md, "Stored project entities"). Building 20 entities per page in SQL was half of
// the page's cost; concatenating stored pieces is a fraction of it. A project's entity is its own
// three pieces around two of its namespace's (the namespace object and the start of
// `name_with_namespace`), each computed from its own row only, so that writers of a project and of
// its namespace never compute from what the other has not committed. Triggers keep the rows
// current; the application installs them at start (accounts/stored-project-entities.ts), because
// their SQL is the entity itself and the instance's URLs, which change with the code and the
// config, not with the schema. `derived_definitions` remembers what was installed, so a start with
// the same code and URLs changes nothing.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('project_entities')
    .addColumn('project_id', 'bigint', (c) => c.primaryKey().references('projects.id').onDelete('cascade'))
    .addColumn('namespace_id', 'bigint', (c) => c.notNull())
    .addColumn('head', 'text', (c) => c.notNull())
    .addColumn('middle', 'text', (c) => c.notNull())
    .addColumn('tail', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('namespace_entities')
    .addColumn('namespace_id', 'bigint', (c) => c.primaryKey().references('namespaces.id').onDelete('cascade'))
    .addColumn('name_prefix', 'text', (c) => c.notNull())
    .addColumn('entity', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('derived_definitions')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('digest', 'text', (c) => c.notNull())
    .execute();
}
