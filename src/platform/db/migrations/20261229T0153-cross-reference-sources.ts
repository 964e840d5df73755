import type { Kysely } from 'kysely';

// "mentioned in …" system notes record their source (GitLab's Note#cross_reference_not_visible_for?
// needs it): the kind ('Issue', 'MergeRequest', 'Commit'), the source's project, and its iid or sha;
// readers who cannot read the source do not see the note. Notes written before this migration are
// backfilled once by parsing their body as seen from the target's project (`#3`, `sibling!7`,
// `group/project@sha`). A body that does not parse, or names a project that no longer exists, is kept
// as kind 'Unknown' with no project: the safe choice, hidden from every reader (the notes then reveal
// nothing rather than possibly a private path or a confidential issue's number).
const BODY = /^mentioned in (issue|merge request|commit) (.+)$/;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notes').addColumn('cross_reference_type', 'text').execute();
  await db.schema.alterTable('notes').addColumn('cross_reference_project_id', 'bigint').execute();
  await db.schema.alterTable('notes').addColumn('cross_reference_iid', 'bigint').execute();
  await db.schema.alterTable('notes').addColumn('cross_reference_sha', 'text').execute();

  const notes = await db
    .selectFrom('notes as n')
    .innerJoin('projects as p', 'p.id', 'n.project_id')
    .select(['n.id', 'n.body', 'p.id as project_id', 'p.full_path_lower'])
    .where('n.system', '=', 1)
    .where('n.body', 'like', 'mentioned in %')
    .execute();
  const projectIds = new Map<string, number | null>();
  const projectIdOf = async (path: string): Promise<number | null> => {
    if (!projectIds.has(path)) {
      const row = await db.selectFrom('projects').select('id').where('full_path_lower', '=', path).executeTakeFirst();
      projectIds.set(path, row ? Number(row.id) : null);
    }
    return projectIds.get(path)!;
  };
  for (const note of notes) {
    const match = BODY.exec(String(note.body));
    if (!match) continue;
    const kind = match[1] === 'issue' ? 'Issue' : match[1] === 'merge request' ? 'MergeRequest' : 'Commit';
    const reference = kind === 'Commit' ? /^(?:(.+)@)?([0-9a-f]{7,40})$/.exec(match[2]) : /^(.*)[#!](\d+)$/.exec(match[2]);
    let projectId: number | null = null;
    if (reference) {
      const path = reference[1] ?? '';
      const target = String(note.full_path_lower);
      if (path === '') projectId = Number(note.project_id);
      else projectId = await projectIdOf(path.includes('/') ? path.toLowerCase() : `${target.slice(0, target.lastIndexOf('/'))}/${path.toLowerCase()}`);
    }
    const values = projectId === null || !reference
      ? { cross_reference_type: 'Unknown' }
      : { cross_reference_type: kind, cross_reference_project_id: projectId, cross_reference_iid: kind === 'Commit' ? null : Number(reference[2]), cross_reference_sha: kind === 'Commit' ? reference[2] : null };
    await db.updateTable('notes').set(values).where('id', '=', note.id).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['cross_reference_sha', 'cross_reference_iid', 'cross_reference_project_id', 'cross_reference_type']) await db.schema.alterTable('notes').dropColumn(column).execute();
}
