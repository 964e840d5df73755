// What a board page is over: one project's issues (the project board), or the issues of a group's
// projects and its subgroups' that the viewer may read (the group board, GitLab's group boards). The
// page renders either the same way; the scope says where it lives, which issues each list reads, how
// a card links its issue and which id its move form names (a project's iid; on a group board, where
// iids repeat between projects, the issue's id).
import type { Deps } from '../../../platform/deps.js';
import type { GroupAccess, NamespaceRow, ProjectAccess, ProjectRow } from '../../../platform/auth/subjects.js';
import { canOnGroup, canOnProject } from '../../../platform/auth/policies/policy.js';
import type { Html } from '../../../platform/web/html.js';
import type { PageContext } from '../../../platform/web/page-route.js';
import { groupSidebar, projectSidebar } from '../../../platform/web/project-nav.js';
import { groupAndDescendantIds } from '../../../labels/api.js';
import { projectIssuesQuery, readableIssuesQuery, type IssueQuery } from '../../issues-queries.js';
import { confidentialScope } from '../../finder.js';
import type { IssueRow } from '../../entities.js';
import { projectPaths } from '../../pages/shared.js';
import type { BoardParent } from '../finder.js';

export interface Card {
  href: string;
  reference: string;
  /** What the card's move form names: `issues/<key>/move`. */
  key: number;
}

export interface BoardScope {
  parent: BoardParent;
  /** The labels a list may be made of. */
  labelsOf: { project: ProjectRow } | { group: NamespaceRow };
  /** `/<project>/-/boards` or `/groups/<group>/-/boards`. */
  root: string;
  labelsUrl: string;
  name: string;
  sidebar: Html;
  mayMove: boolean;
  mayAddList: boolean;
  /** Creating, renaming and deleting boards (admin_issue_board). */
  mayAdminBoards: boolean;
  readable(state: 'opened' | 'closed'): IssueQuery;
  /** Whether the board shows this project's issues. */
  holds(project: ProjectRow): boolean;
  cards(rows: IssueRow[]): Promise<(issue: IssueRow) => Card>;
}

export function projectBoardScope(context: PageContext, access: ProjectAccess): BoardScope {
  const base = `/${access.project.full_path}`;
  const signedIn = Boolean(context.user);
  return {
    parent: { project: access.project, namespace: access.namespace },
    labelsOf: { project: access.project },
    root: `${base}/-/boards`,
    labelsUrl: `${base}/-/labels`,
    name: access.project.name,
    sidebar: projectSidebar(access, 'boards'),
    mayMove: signedIn && canOnProject(access, 'admin_issue'),
    mayAddList: signedIn && canOnProject(access, 'admin_issue_board_list'),
    mayAdminBoards: signedIn && canOnProject(access, 'admin_issue_board'),
    readable: (state) => projectIssuesQuery(context.deps, access.project.id, confidentialScope(access), { state, issueType: 'issue' }, context.user ?? null),
    holds: (project) => Number(project.id) === Number(access.project.id),
    cards: async () => (issue) => ({ href: `${base}/-/issues/${issue.iid}`, reference: `#${issue.iid}`, key: Number(issue.iid) }),
  };
}

export async function groupBoardScope(deps: Deps, context: PageContext, access: GroupAccess): Promise<BoardScope> {
  const base = `/groups/${access.group.full_path}`;
  const groupIds = await groupAndDescendantIds(deps.db, Number(access.group.id));
  const signedIn = Boolean(context.user);
  return {
    parent: { group: access.group },
    labelsOf: { group: access.group },
    root: `${base}/-/boards`,
    labelsUrl: `${base}/-/labels`,
    name: access.group.name,
    sidebar: groupSidebar(access, 'boards'),
    // The group's Reporters are Reporters of its projects; a move still asks the issue's own project.
    mayMove: signedIn && canOnGroup(access, 'admin_issue_board'),
    mayAddList: signedIn && canOnGroup(access, 'admin_issue_board_list'),
    mayAdminBoards: signedIn && canOnGroup(access, 'admin_issue_board'),
    readable: (state) => readableIssuesQuery(deps, context.user ?? null, { groupIds }, { state, issueType: 'issue' }),
    holds: (project) => groupIds.includes(Number(project.namespace_id)),
    cards: async (rows) => {
      const paths = await projectPaths(deps, rows);
      return (issue) => {
        const path = paths.get(Number(issue.project_id)) ?? '';
        return { href: `/${path}/-/issues/${issue.iid}`, reference: `${path}#${issue.iid}`, key: Number(issue.id) };
      };
    },
  };
}
