// DELETE /projects/:id/issues/:issue_iid/links/:issue_link_id (GitLab's IssueLinks::DestroyService):
// the caller needs admin_issue_link on both issues (404 "No Issue Link found" otherwise); each issue
// gets the note "removed the relation with …".
import type { Deps } from '../../platform/deps.js';
import { inTransaction } from '../../platform/db/database.js';
import { canOnProject } from '../../platform/auth/policies/index.js';
import { ApiError } from '../../platform/http/api-error.js';
import { writeSystemNote } from '../system-notes.js';
import type { IssueLinkRow } from './issue-links-finder.js';
import type { LinkEnd } from './link-issues.js';
import { issueReference } from './issue-reference.js';

/** `source` and `target` are the link's own ends (source_id, target_id), both readable by the caller. */
export async function unlinkIssues(deps: Deps, actorId: number, link: IssueLinkRow, source: LinkEnd, target: LinkEnd): Promise<void> {
  if (!canOnProject(source.access, 'admin_issue_link') || !canOnProject(target.access, 'admin_issue_link')) throw new ApiError(404, { message: 'No Issue Link found' });
  await inTransaction(deps.db, async (trx) => {
    const removed = await trx.deleteFrom('issue_links').where('id', '=', link.id).executeTakeFirst();
    // Another request removed it already: its notes are written.
    if (Number(removed.numDeletedRows) === 0) return;
    const sourceProject = source.access.project;
    const targetProject = target.access.project;
    await writeSystemNote(trx, deps, Number(sourceProject.id), Number(source.issue.id), actorId, `removed the relation with ${issueReference(target.issue, targetProject, sourceProject)}`);
    await writeSystemNote(trx, deps, Number(targetProject.id), Number(target.issue.id), actorId, `removed the relation with ${issueReference(source.issue, sourceProject, targetProject)}`);
  });
}
