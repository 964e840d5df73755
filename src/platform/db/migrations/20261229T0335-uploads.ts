import type { Kysely } from 'kysely';
import { TIME, withId } from './_columns.js';

// Markdown uploads (issue 38; GitLab's uploads of a project's FileUploader): a file attached to a
// project under an unguessable secret, referenced from Markdown as /uploads/<secret>/<filename>. The
// bytes live on disk (KILN_UPLOADS_PATH); rows go with their project, and the files of a deleted
// project with the daily orphan job.
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('uploads'))
    .addColumn('project_id', 'bigint', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('uploaded_by_user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', TIME, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('uploads_project_secret').on('uploads').columns(['project_id', 'secret']).unique().execute();
  await db.schema.createIndex('uploads_project_created').on('uploads').columns(['project_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('uploads_uploaded_by').on('uploads').column('uploaded_by_user_id').execute();
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
