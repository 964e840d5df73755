import { sql, type Kysely } from 'kysely';
import { isPostgres } from './_columns.js';

// The Project entity is defined once, in code (accounts/entities.ts), and served from it: the
// listing's stored JSON pieces (20261129T0900-project-entities) and the triggers the application
// installed to keep them go, with the record of what was installed.
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger if exists project_entity on projects`.execute(db);
    await sql`drop trigger if exists namespace_entity on namespaces`.execute(db);
    await sql`drop function if exists kiln_store_project_entity()`.execute(db);
    await sql`drop function if exists kiln_store_namespace_entity()`.execute(db);
  } else {
    for (const name of ['project_entity_on_insert', 'project_entity_on_update', 'namespace_entity_on_insert', 'namespace_entity_on_update']) {
      await sql`drop trigger if exists ${sql.raw(name)}`.execute(db);
    }
  }
  await db.schema.dropTable('project_entities').ifExists().execute();
  await db.schema.dropTable('namespace_entities').ifExists().execute();
  await db.schema.dropTable('derived_definitions').ifExists().execute();
  await sql`delete from table_versions where name in ('project_entities', 'namespace_entities', 'derived_definitions')`.execute(db);
}
