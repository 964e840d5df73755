// The merge requests related to an issue (GitLab's Issue#related_merge_requests, for
// `GET /projects/:id/issues/:iid/related_merge_requests`): those that close it, and those whose
// title, description or comments refer to it — `#12` from a merge request of the issue's project,
// `group/project#12` from any. LIKE finds the candidates; GitLab's reference pattern then decides,
// so `#120` never counts as a reference to `#12`.
import type { Deps } from '../platform/deps.js';
import { containsPattern, lowerLike } from '../platform/db/like.js';

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export async function relatedMergeRequestIds(deps: Deps, issue: { id: number; iid: number; project_id: number }, projectFullPath: string): Promise<number[]> {
  // `group/project#12` contains `#12`: one LIKE finds the candidates of both forms.
  const local = `#${issue.iid}`;
  const localPattern = new RegExp(`(?<![\\w&/#])#${issue.iid}(?!\\d)`);
  const fullPattern = new RegExp(`(?<![\\w/])${escaped(projectFullPath)}#${issue.iid}(?!\\d)`, 'i');
  const like = containsPattern(local);
  const [texts, notes, closing] = await Promise.all([
    deps.db
      .selectFrom('merge_requests as m')
      .select(['m.id', 'm.target_project_id', 'm.title', 'm.description'])
      .where((eb) => eb.or([lowerLike('m.title', like), lowerLike('m.description', like)]))
      .execute(),
    deps.db
      .selectFrom('notes as n')
      .innerJoin('merge_requests as m', 'm.id', 'n.noteable_id')
      .select(['m.id', 'm.target_project_id', 'n.body'])
      .where('n.noteable_type', '=', 'MergeRequest')
      .where('n.system', '=', 0)
      .where(lowerLike('n.body', like))
      .execute(),
    deps.db.selectFrom('merge_requests_closing_issues').select('merge_request_id').where('issue_id', '=', issue.id).execute(),
  ]);
  const refers = (projectId: number, text: string | null) =>
    text !== null && ((Number(projectId) === Number(issue.project_id) && localPattern.test(text)) || fullPattern.test(text));
  const ids = new Set(closing.map((row) => Number(row.merge_request_id)));
  for (const row of texts) if (refers(row.target_project_id, row.title) || refers(row.target_project_id, row.description)) ids.add(Number(row.id));
  for (const row of notes) if (refers(row.target_project_id, row.body)) ids.add(Number(row.id));
  return [...ids];
}
