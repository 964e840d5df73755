// GitLab's `my_reaction_emoji` filter of issue and merge request lists: `None`, nothing the viewer
// awarded; `Any`, some award of theirs; else that emoji awarded by them. Without a viewer nothing is
// theirs. `alias.id` is the listed row's id column (`i.id`, `m.id`).
import { sql, type RawBuilder, type SqlBool } from 'kysely';

export function reactionCondition(type: 'Issue' | 'MergeRequest', idColumn: 'i.id' | 'm.id', value: string, viewerId: number | null): RawBuilder<SqlBool> {
  const mine = (name: string | null) => sql<SqlBool>`exists (select 1 from award_emoji a where a.awardable_type = ${type} and a.awardable_id = ${sql.ref(idColumn)} and a.user_id = ${viewerId ?? 0}${name === null ? sql`` : sql` and a.name = ${name}`})`;
  const lower = value.toLowerCase();
  if (lower === 'none') return sql<SqlBool>`not ${mine(null)}`;
  return lower === 'any' ? mine(null) : mine(value);
}
