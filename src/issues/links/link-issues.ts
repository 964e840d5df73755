// POST /projects/:id/issues/:issue_iid/links (GitLab's IssueLinks::CreateService): a link between two
// issues the caller reads, checked in GitLab's order: an existing link (either way) is 409, a caller
// without admin_issue_link on both issues 403; a link to itself 422. "is_blocked_by" is kept as the
// reverse `blocks`, as GitLab keeps it. Each issue gets a system note (SystemNoteService.relate_issuable).
import type { Deps } from '../../platform/deps.js';
import { inTransaction, isUniqueViolation } from '../../platform/db/database.js';
import { canOnProject } from '../../platform/auth/policies/index.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { ApiError } from '../../platform/http/api-error.js';
import type { IssueRow } from '../entities.js';
import { writeSystemNote } from '../system-notes.js';
import { linkBetween, type IssueLinkRow } from './issue-links-finder.js';
import { issueReference } from './issue-reference.js';

export type LinkType = 'relates_to' | 'blocks' | 'is_blocked_by';
export const LINK_TYPES: readonly LinkType[] = ['relates_to', 'blocks', 'is_blocked_by'];

export interface LinkEnd {
  issue: IssueRow;
  access: ProjectAccess;
}

export const NO_PERMISSION = "Couldn't link issues. You must have at least the Guest role in both projects.";

/** The note on `issue` about a link of type `type` (seen from it) to `other`. */
function relateNote(type: LinkType, reference: string): string {
  if (type === 'blocks') return `marked this issue as blocking ${reference}`;
  if (type === 'is_blocked_by') return `marked this issue as blocked by ${reference}`;
  return `marked this issue as related to ${reference}`;
}

const REVERSE: Record<LinkType, LinkType> = { relates_to: 'relates_to', blocks: 'is_blocked_by', is_blocked_by: 'blocks' };

export async function linkIssues(deps: Deps, actorId: number, source: LinkEnd, target: LinkEnd, type: LinkType): Promise<IssueLinkRow> {
  const sourceId = Number(source.issue.id);
  const targetId = Number(target.issue.id);
  if (await linkBetween(deps.db, sourceId, targetId)) throw new ApiError(409, { message: 'Issue(s) already assigned' });
  if (!canOnProject(source.access, 'admin_issue_link') || !canOnProject(target.access, 'admin_issue_link')) throw new ApiError(403, { message: NO_PERMISSION });
  if (sourceId === targetId) throw new ApiError(422, { message: `#${target.issue.iid} cannot be added: cannot be related to itself` });
  const now = deps.clock.now();
  const [from, to] = type === 'is_blocked_by' ? [targetId, sourceId] : [sourceId, targetId];
  try {
    return await inTransaction(deps.db, async (trx) => {
      const link = await trx
        .insertInto('issue_links')
        .values({ source_id: from, target_id: to, link_type: type === 'relates_to' ? 'relates_to' : 'blocks', created_at: now, updated_at: now })
        .returningAll()
        .executeTakeFirstOrThrow();
      const sourceProject = source.access.project;
      const targetProject = target.access.project;
      await writeSystemNote(trx, deps, Number(sourceProject.id), sourceId, actorId, relateNote(type, issueReference(target.issue, targetProject, sourceProject)));
      await writeSystemNote(trx, deps, Number(targetProject.id), targetId, actorId, relateNote(REVERSE[type], issueReference(source.issue, sourceProject, targetProject)));
      return link;
    });
  } catch (error) {
    // A racing request linked them first.
    if (isUniqueViolation(error)) throw new ApiError(409, { message: 'Issue(s) already assigned' });
    throw error;
  }
}
