// Badge URL placeholders (GitLab's Badge::PLACEHOLDERS, doc/user/project/badges.md): `%{name}` in a
// link or image URL is replaced by the project's value when the badge is shown for a project. An
// unknown name stays as written; a known one without a value (no commit yet) becomes empty.
import type { Deps } from '../platform/deps.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import { readableRepository, repositoryRefs } from '../repositories/api.js';

export const PLACEHOLDERS = ['project_path', 'project_title', 'project_name', 'project_id', 'project_namespace', 'group_name', 'gitlab_server', 'default_branch', 'commit_sha'] as const;
type Placeholder = (typeof PLACEHOLDERS)[number];

const PATTERN = new RegExp(`%\\{(${PLACEHOLDERS.join('|')})\\}`, 'g');

/** The values a project gives the placeholders; the commit is read only when a URL asks for it. */
export class PlaceholderValues {
  private commit: Promise<string> | null = null;

  constructor(private readonly deps: Deps, readonly project: ProjectRow) {}

  async render(url: string): Promise<string> {
    const names = new Set([...url.matchAll(PATTERN)].map((match) => match[1] as Placeholder));
    if (names.size === 0) return url;
    const values = new Map<Placeholder, string>();
    for (const name of names) values.set(name, await this.value(name));
    return url.replace(PATTERN, (_whole, name: Placeholder) => values.get(name) ?? '');
  }

  private async value(name: Placeholder): Promise<string> {
    const { project } = this;
    const namespacePath = project.full_path.slice(0, project.full_path.lastIndexOf('/'));
    switch (name) {
      case 'project_path': return project.full_path;
      case 'project_title': return project.name;
      case 'project_name': return project.path;
      case 'project_id': return String(Number(project.id));
      case 'project_namespace': return namespacePath;
      case 'group_name': return (await this.topGroupPath()) ?? '';
      case 'gitlab_server': return new URL(this.deps.config.baseUrl).host;
      case 'default_branch': return project.default_branch;
      case 'commit_sha': return this.commitSha();
    }
  }

  /** The top-level group's path; a personal project has none. */
  private async topGroupPath(): Promise<string | null> {
    const namespace = await this.deps.db.selectFrom('namespaces').select(['kind', 'full_path']).where('id', '=', this.project.namespace_id).executeTakeFirst();
    return namespace?.kind === 'group' ? namespace.full_path.split('/')[0] : null;
  }

  /** The default branch's head commit (GitLab's project.commit). */
  private commitSha(): Promise<string> {
    this.commit ??= (async () => {
      const refs = await repositoryRefs(await readableRepository(this.deps, this.project));
      return refs.get(`refs/heads/${this.project.default_branch}`) ?? '';
    })();
    return this.commit;
  }
}
