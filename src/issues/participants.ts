// Who takes part in an issue or a merge request, as `GET …/participants` lists them (GitLab's
// Participable#visible_participants): the author, the assignees (and reviewers), the authors of the
// notes, then the users mentioned (`@username`) in the title, the description or a note, each once in
// order of first appearance. System notes count as GitLab's participant walk takes them (it skips one
// only when it would add no one): whoever only changed a label takes part, and "unassigned @bob" keeps
// bob. A note the caller may not see (a "mentioned in" note from a source hidden to them, as GitLab
// checks read_note on each) counts for nothing. The list keeps only the users who may read the project
// (GitLab filters participants by read_project, not by the confidentiality).
import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { canOnProject } from '../platform/auth/policies/index.js';
import { projectTeamLevelsOfSql } from '../platform/auth/membership-queries.js';
import { levelOn, toAuthUser, userBasic } from '../accounts/api.js';
import { mentionedUsernames } from '../markdown/api.js';
import { visibleNotes } from './cross-reference-visibility.js';

export interface ParticipableFacts {
  type: 'Issue' | 'MergeRequest';
  id: number;
  authorId: number;
  /** Assignees, then reviewers for a merge request. */
  leadIds: number[];
  title: string;
  description: string | null;
}

export async function visibleParticipants(deps: Deps, access: ProjectAccess, facts: ParticipableFacts) {
  const notes = await visibleNotes(deps, access.user, await deps.db
    .selectFrom('notes')
    .select(['author_id', 'body', 'cross_reference_type', 'cross_reference_project_id', 'cross_reference_iid'])
    .where('noteable_type', '=', facts.type)
    .where('noteable_id', '=', facts.id)
    .orderBy('id')
    .execute(), access);
  const names = [...new Set([facts.title, facts.description, ...notes.map((note) => note.body)].flatMap((text) => mentionedUsernames(text)))];
  const takingPart = [facts.authorId, ...facts.leadIds, ...notes.map((note) => Number(note.author_id))];
  // The users taking part and those mentioned, in one read.
  const users = await deps.db
    .selectFrom('users')
    .select(['id', 'username', 'username_lower', 'name', 'state', 'avatar', 'admin', 'otp_required'])
    .where((eb) => eb.or([eb('id', 'in', takingPart), ...(names.length ? [eb('username_lower', 'in', names)] : [])]))
    .execute();
  const byName = new Map(users.map((user) => [user.username_lower, Number(user.id)]));
  const mentionedIds = names.flatMap((name) => (byName.has(name) ? [byName.get(name)!] : []));
  const ids = [...new Set([...takingPart, ...mentionedIds])];
  const { project, namespace } = access;
  const team = await projectTeamLevelsOfSql(Number(project.id), Number(namespace.id), deps.clock.now(), ids).execute(deps.db);
  const levels = new Map(team.rows.map((row) => [Number(row.user_id), Number(row.level)]));
  const byId = new Map(users.map((user) => [Number(user.id), user]));
  return ids.flatMap((userId) => {
    const user = byId.get(userId);
    if (!user) return [];
    const authUser = toAuthUser(user);
    const subject = { user: authUser, level: levelOn(authUser, namespace, levels.get(userId) ?? 0), visibility: project.visibility, features: project };
    return canOnProject(subject, 'read_project') ? [userBasic(deps.config.baseUrl, user)] : [];
  });
}
