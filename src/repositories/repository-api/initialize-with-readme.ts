// POST /projects with `initialize_with_readme=true` (GitLab's Projects::CreateService
// #create_readme): the new project's first commit, README.md on the default branch, made by the
// creator and titled with the project's name (and description), so that clients expecting `main`
// to exist find it.
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { commitFiles } from './commit-files.js';

export function readmeText(name: string, description: string | null): string {
  return `# ${name}\n${description ? `\n${description}\n` : ''}`;
}

export async function initializeWithReadme(deps: Deps, access: ProjectAccess): Promise<void> {
  await commitFiles(deps, access, {
    branch: access.project.default_branch,
    message: 'Initial commit',
    actions: [{ action: 'create', filePath: 'README.md', content: Buffer.from(readmeText(access.project.name, access.project.description), 'utf8') }],
    changedMessage: () => '',
    // GitLab makes it for the creator whatever protects the default branch.
    skipBranchAccessCheck: true,
  });
}
