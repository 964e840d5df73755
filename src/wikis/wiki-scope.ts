// Whose wiki a request is about — a project's or a group's — and what follows from it: its repository,
// the root of its pages, who may write and delete there, and the project whose references its Markdown
// resolves (a group's wiki has none). Routes and pages build one from the subject the kit checked.
import type { GroupAccess, ProjectAccess } from '../platform/auth/subjects.js';
import { canOnGroup, canOnProject } from '../platform/auth/policies/index.js';
import type { WikiOwner } from '../repositories/api.js';

export interface WikiScope {
  owner: WikiOwner;
  /** `/<project>/-/wikis` or `/groups/<group>/-/wikis`. */
  root: string;
  project: ProjectAccess | null;
  group: GroupAccess | null;
  writable: boolean;
  /** Pages may be deleted (admin_wiki). */
  deletable: boolean;
}

export function projectWiki(access: ProjectAccess): WikiScope {
  return {
    owner: { type: 'project_wiki', id: Number(access.project.id) },
    root: `/${access.project.full_path}/-/wikis`,
    project: access,
    group: null,
    writable: canOnProject(access, 'create_wiki'),
    deletable: canOnProject(access, 'admin_wiki'),
  };
}

export function groupWiki(access: GroupAccess): WikiScope {
  return {
    owner: { type: 'group', id: Number(access.group.id) },
    root: `/groups/${access.group.full_path}/-/wikis`,
    project: null,
    group: access,
    writable: canOnGroup(access, 'create_wiki'),
    deletable: canOnGroup(access, 'admin_wiki'),
  };
}
