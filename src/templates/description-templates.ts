// A project's description templates (GitLab's IssueTemplate and MergeRequestTemplate): the Markdown
// files of `.gitlab/issue_templates/` and `.gitlab/merge_request_templates/` on the default branch,
// each named by its file name less `.md` (`Bug.md` is `Bug`), listed in GitLab's order (by name,
// compared as Ruby compares strings: code unit by code unit). Readers of the project's code only:
// the templates are repository files.
import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { canOnProject } from '../platform/auth/policies/policy.js';
import { defaultBranchFolder } from '../repositories/api.js';
import type { FileTemplate, TemplateSummary } from './file-templates.js';

export const DESCRIPTION_TEMPLATE_TYPES = ['issues', 'merge_requests'] as const;
export type DescriptionTemplateType = (typeof DESCRIPTION_TEMPLATE_TYPES)[number];

const FOLDERS: Record<DescriptionTemplateType, string> = {
  issues: '.gitlab/issue_templates',
  merge_requests: '.gitlab/merge_request_templates',
};
const EXTENSION = '.md';

export function isDescriptionTemplateType(type: string): type is DescriptionTemplateType {
  return (DESCRIPTION_TEMPLATE_TYPES as readonly string[]).includes(type);
}

async function templateFiles(deps: Deps, access: ProjectAccess, type: DescriptionTemplateType) {
  // Pages ask for templates for anyone who may open an issue; only code readers see them.
  if (!canOnProject(access, 'download_code')) return [];
  const files = await defaultBranchFolder(deps, access.project, FOLDERS[type]);
  return files
    .filter((file) => file.name.endsWith(EXTENSION) && file.name.length > EXTENSION.length)
    .map((file) => ({ ...file, key: file.name.slice(0, -EXTENSION.length) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** The templates' keys and names (the same: the file name less `.md`), by name. */
export async function listDescriptionTemplates(deps: Deps, access: ProjectAccess, type: DescriptionTemplateType): Promise<TemplateSummary[]> {
  return (await templateFiles(deps, access, type)).map(({ key }) => ({ key, name: key }));
}

/** One template by its name, or undefined; a name is only ever matched against the folder's own files. */
export async function findDescriptionTemplate(deps: Deps, access: ProjectAccess, type: DescriptionTemplateType, name: string): Promise<FileTemplate | undefined> {
  const file = (await templateFiles(deps, access, type)).find((candidate) => candidate.key === name);
  return file && { name: file.key, content: await file.read() };
}

/** The template GitLab fills a new issue or merge request with: the one named `Default` (in any case). */
export function defaultTemplateName(templates: readonly TemplateSummary[]): string | undefined {
  return (templates.find((template) => template.name === 'Default') ?? templates.find((template) => template.name.toLowerCase() === 'default'))?.name;
}
