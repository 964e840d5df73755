// A new project's first commit: POST /projects with `initialize_with_readme=true` (GitLab's
// Projects::CreateService#create_readme) and the new-project form, which can add a LICENSE and a
// .gitignore from the templates. README.md on the default branch is titled with the project's name
// (and description); the commit is made by the creator, so that clients expecting `main` to exist
// find it.
import type { Deps } from '../../platform/deps.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import type { InitialFiles } from '../../accounts/api.js';
import { commitFiles } from './commit-files.js';

export function readmeText(name: string, description: string | null): string {
  return `# ${name}\n${description ? `\n${description}\n` : ''}`;
}

export async function initializeRepository(deps: Deps, access: ProjectAccess, initial: InitialFiles): Promise<void> {
  const files = [...(initial.readme ? [{ path: 'README.md', content: readmeText(access.project.name, access.project.description) }] : []), ...initial.files];
  if (files.length === 0) return;
  await commitFiles(deps, access, {
    branch: access.project.default_branch,
    message: 'Initial commit',
    actions: files.map((file) => ({ action: 'create' as const, filePath: file.path, content: Buffer.from(file.content, 'utf8') })),
    changedMessage: () => '',
    // GitLab makes it for the creator whatever protects the default branch.
    skipBranchAccessCheck: true,
  });
}
