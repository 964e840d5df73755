// Applying suggestions (GitLab's Suggestions::ApplyService and Gitlab::Suggestions::SuggestionSet):
// one commit on the merge request's source branch replacing, in each file, the lines each suggestion
// was made on with its text. Refused with GitLab's sentences, the first failing check of the first
// failing suggestion first; the commit is authored by the notes' author when there is one, committed
// by the caller, with the caller's message, the project's suggestion_commit_message or GitLab's
// default, and `%{…}` placeholders filled. The branch moves only from the head the contents were
// computed on (a push in between: "A file has been changed."). The applied suggestions' threads are
// resolved.
import type { Deps } from '../../../platform/deps.js';
import { inTransaction } from '../../../platform/db/database.js';
import type { ProjectAccess, ProjectRow } from '../../../platform/auth/subjects.js';
import type { AuthUser } from '../../../platform/auth/principal.js';
import { StatusError } from '../../../platform/errors.js';
import { commitFiles, RepositoryApiError } from '../../../repositories/api.js';
import type { NoteRow } from '../../../issues/api.js';
import type { MergeRequestRow } from '../../rows.js';
import { latestDiffOf } from '../../finder.js';
import { refreshSourceNow } from '../../refresh-merge-requests.js';
import { branchHead, readRepository } from '../../mr-repository.js';
import { isActive } from '../diff-threads.js';
import { lockMergeRequest, noteAllResolved, setThreadResolved } from '../resolve-discussion.js';
import { readPosition, type Position } from '../position.js';
import { blobLines, linesBetween } from './new-suggestions.js';
import type { SuggestionRow } from './suggestion-entity.js';

export const DEFAULT_SUGGESTION_COMMIT_MESSAGE = 'Apply %{suggestions_count} suggestion(s) to %{files_count} file(s)\n\n%{co_authored_by}';
const FILE_CHANGED = 'A file has been changed.';

export interface SuggestionAt {
  suggestion: SuggestionRow;
  note: NoteRow;
  mr: MergeRequestRow;
}

interface Placed extends SuggestionAt {
  position: Position;
  path: string;
  from: number;
  to: number;
}

class Refusal extends Error {}

function outdatedReason(row: SuggestionRow): string {
  return Number(row.lines_above) === 0 && Number(row.lines_below) === 0
    ? "Can't apply as this line was changed in a more recent version."
    : "Can't apply as these lines were changed in a more recent version.";
}

/** Suggestion#inapplicable_reason and the SuggestionSet checks of one suggestion, against the branch as it is. */
async function check(deps: Deps, repoPath: string, head: string | null, at: SuggestionAt, first: SuggestionAt): Promise<Placed> {
  const { suggestion, note, mr } = at;
  const position = readPosition(note.position);
  const path = position?.new_path ?? null;
  const lines = position && path && head ? await blobLines(repoPath, position.head_sha, path) : null;
  if (!position || !path || position.new_line == null) throw new Refusal('A file was not found.');
  if (Number(mr.id) !== Number(first.mr.id) && (mr.source_branch !== first.mr.source_branch || Number(mr.source_project_id) !== Number(first.mr.source_project_id))) {
    throw new Refusal('Suggestions must all be on the same branch.');
  }
  if (Number(suggestion.applied) === 1) throw new Refusal("Can't apply this suggestion.");
  if (mr.state === 'merged') throw new Refusal('This merge request was merged. To apply this suggestion, edit this file directly.');
  if (mr.state === 'closed') throw new Refusal('This merge request is closed. To apply this suggestion, edit this file directly.');
  if (head === null) throw new Refusal("Can't apply as the source branch was deleted.");
  const from = position.new_line - Number(suggestion.lines_above);
  const to = position.new_line + Number(suggestion.lines_below);
  const latest = await latestDiffOf(deps.db, mr);
  if (!lines || !isActive(note, latest) || linesBetween(lines, from, to) !== suggestion.from_content) throw new Refusal(outdatedReason(suggestion));
  if (suggestion.from_content === suggestion.to_content) throw new Refusal('This suggestion already matches its content.');
  if (path.endsWith('ipynb')) throw new Refusal("This file was modified for readability, and can't accept suggestions. Edit it directly.");
  if (position.head_sha !== head) throw new Refusal(FILE_CHANGED);
  return { ...at, position, path, from, to };
}

/** GitLab's placeholders (Gitlab::Suggestions::CommitMessage), each replaced where it appears. */
function commitMessage(template: string, values: Record<string, string>): string {
  return template.replace(/%\{([a-z_]+)\}/g, (whole, key: string) => (key in values ? values[key] : whole));
}

async function people(deps: Deps, ids: number[]): Promise<Map<number, { name: string; email: string; username: string }>> {
  const rows = ids.length ? await deps.db.selectFrom('users').select(['id', 'name', 'email', 'username']).where('id', 'in', ids).execute() : [];
  return new Map(rows.map((row) => [Number(row.id), row]));
}

/**
 * Applies the suggestions (already found, the caller allowed to push to the source branch), marks
 * them applied with the new commit and returns its id. A refusal is a 400 with GitLab's sentence.
 */
export async function applySuggestions(deps: Deps, access: ProjectAccess, source: ProjectRow, actor: AuthUser, found: SuggestionAt[], customMessage: string | undefined): Promise<string> {
  const first = found[0];
  const repoPath = await readRepository(deps, source);
  if (!repoPath) throw new StatusError(400, 'A file was not found.');
  const head = await branchHead(repoPath, first.mr.source_branch);
  const placed: Placed[] = [];
  try {
    for (const at of found) placed.push(await check(deps, repoPath, head, at, first));
  } catch (error) {
    if (error instanceof Refusal) throw new StatusError(400, error.message);
    throw error;
  }
  const byFile = new Map<string, Placed[]>();
  for (const item of placed) byFile.set(item.path, [...(byFile.get(item.path) ?? []), item]);
  const actions = [];
  for (const [path, items] of byFile) {
    items.sort((a, b) => a.from - b.from);
    if (items.some((item, index) => index > 0 && item.from <= items[index - 1].to)) throw new StatusError(400, 'Suggestions are not applicable as their lines cannot overlap.');
    const lines = (await blobLines(repoPath, head!, path)) ?? [];
    // From the bottom up, so that earlier replacements do not move the later lines.
    for (const item of [...items].reverse()) lines.splice(item.from - 1, item.to - item.from + 1, ...item.suggestion.to_content.split(/(?<=\n)/).filter((line) => line !== ''));
    actions.push({ action: 'update' as const, filePath: path, content: Buffer.from(lines.join('')) });
  }
  const authorIds = [...new Set(placed.map((item) => Number(item.note.author_id)))];
  const users = await people(deps, [...authorIds, actor.id]);
  const caller = users.get(actor.id);
  const coAuthors = authorIds.filter((id) => id !== actor.id).map((id) => users.get(id)).filter((user) => user !== undefined);
  const paths = [...byFile.keys()].sort();
  const template = customMessage?.trim() ? customMessage : (access.project.suggestion_commit_message?.trim() ? access.project.suggestion_commit_message : DEFAULT_SUGGESTION_COMMIT_MESSAGE);
  const message = commitMessage(template, {
    branch_name: first.mr.source_branch,
    files_count: String(paths.length),
    file_paths: paths.join(', '),
    project_name: access.project.name,
    project_path: access.project.path,
    user_full_name: caller?.name ?? actor.name,
    username: actor.username,
    suggestions_count: String(placed.length),
    co_authored_by: coAuthors.map((user) => `Co-authored-by: ${user.name} <${user.email}>`).join('\n'),
  });
  const author = authorIds.length === 1 ? users.get(authorIds[0]) : undefined;
  try {
    const commit = await commitFiles(deps, access, {
      branch: first.mr.source_branch, message, actions, expectedHead: head!,
      authorName: author?.name, authorEmail: author?.email,
      changedMessage: () => FILE_CHANGED,
    });
    const now = deps.clock.now();
    await inTransaction(deps.db, async (trx) => {
      await trx.updateTable('suggestions').set({ applied: 1, commit_id: commit.id }).where('id', 'in', placed.map((item) => Number(item.suggestion.id))).execute();
      // As GitLab does, the threads whose suggestions were applied are resolved by who applied them.
      await lockMergeRequest(trx, first.mr);
      let changed = false;
      for (const discussionId of new Set(placed.map((item) => item.note.discussion_id).filter((id) => id !== null))) changed = (await setThreadResolved(trx, first.mr, discussionId, { id: actor.id }, now)) || changed;
      if (changed) await noteAllResolved(trx, first.mr, actor.id, now);
    });
    await refreshSourceNow(deps, Number(first.mr.id), actor.id);
    return commit.id;
  } catch (error) {
    if (error instanceof RepositoryApiError) throw new StatusError(error.status, error.message.startsWith('Could not update branch') ? FILE_CHANGED : error.message);
    throw error;
  }
}
