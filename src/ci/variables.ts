// GitLab's predefined CI/CD variables (doc/ci/variables/predefined_variables.md): those known before
// the pipeline exists (rules see them) and those of a job (handed to the runner), plus `$VAR`
// expansion where GitLab expands them (environment names and URLs).
import type { Deps } from '../platform/deps.js';
import type { ProjectRow } from '../platform/auth/subjects.js';
import type { CommitObject } from '../repositories/api.js';
import { ciConfigPath } from './pipelines/config-path.js';

/** GitLab's slug: lower case, anything but a-z0-9 as `-`, at most 63 bytes, no `-` at either end. */
export function ciSlug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '-').slice(0, 63).replace(/^-+|-+$/g, '');
}

export interface PipelineFacts {
  ref: string;
  tag: boolean;
  sha: string;
  beforeSha: string | null;
  source: string;
  commit?: CommitObject;
  /** A merge request pipeline's source branch: its ref name (its ref is the merge request's ref). */
  sourceBranch?: string;
}

export function pipelineVariables(deps: Deps, project: ProjectRow, facts: PipelineFacts): Record<string, string> {
  const base = deps.config.baseUrl;
  const url = new URL(base);
  const title = facts.commit ? (facts.commit.message.split('\n')[0] ?? '') : '';
  const namespace = project.full_path.includes('/') ? project.full_path.slice(0, project.full_path.lastIndexOf('/')) : '';
  return {
    CI: 'true',
    GITLAB_CI: 'true',
    CI_SERVER_URL: base.replace(/\/$/, ''),
    CI_SERVER_HOST: url.hostname,
    CI_SERVER_FQDN: url.host,
    CI_SERVER_PORT: url.port || (url.protocol === 'https:' ? '443' : '80'),
    CI_SERVER_PROTOCOL: url.protocol.replace(':', ''),
    CI_SERVER_NAME: 'GitLab',
    CI_API_V4_URL: `${base.replace(/\/$/, '')}/api/v4`,
    CI_PROJECT_ID: String(project.id),
    CI_PROJECT_NAME: project.path,
    CI_PROJECT_TITLE: project.name,
    CI_PROJECT_PATH: project.full_path,
    CI_PROJECT_PATH_SLUG: ciSlug(project.full_path),
    CI_PROJECT_NAMESPACE: namespace,
    CI_PROJECT_ROOT_NAMESPACE: project.full_path.split('/')[0],
    CI_PROJECT_URL: `${base.replace(/\/$/, '')}/${project.full_path}`,
    CI_PROJECT_VISIBILITY: String(project.visibility),
    CI_CONFIG_PATH: ciConfigPath(project),
    CI_DEFAULT_BRANCH: project.default_branch,
    CI_COMMIT_SHA: facts.sha,
    CI_COMMIT_SHORT_SHA: facts.sha.slice(0, 8),
    CI_COMMIT_BEFORE_SHA: facts.beforeSha ?? '0000000000000000000000000000000000000000',
    CI_COMMIT_REF_NAME: facts.sourceBranch ?? facts.ref,
    CI_COMMIT_REF_SLUG: ciSlug(facts.sourceBranch ?? facts.ref),
    // A merge request pipeline has no CI_COMMIT_BRANCH (GitLab: branch pipelines only).
    ...(facts.tag ? { CI_COMMIT_TAG: facts.ref } : facts.sourceBranch !== undefined ? {} : { CI_COMMIT_BRANCH: facts.ref }),
    ...(facts.commit
      ? {
          CI_COMMIT_MESSAGE: facts.commit.message,
          CI_COMMIT_TITLE: title,
          CI_COMMIT_DESCRIPTION: facts.commit.message.slice(title.length).replace(/^\n+/, ''),
          CI_COMMIT_AUTHOR: `${facts.commit.author.name} <${facts.commit.author.email}>`,
          CI_COMMIT_TIMESTAMP: new Date(facts.commit.committer.seconds * 1000).toISOString().replace('.000Z', 'Z'),
        }
      : {}),
    CI_PIPELINE_SOURCE: facts.source,
  };
}

/** `$VAR` and `${VAR}` replaced by their values; unknown ones are kept as written. */
export function expandVariables(text: string, variables: Record<string, string>): string {
  return text.replace(/\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g, (whole, braced: string | undefined, bare: string | undefined) => {
    const name = braced ?? bare ?? '';
    return Object.hasOwn(variables, name) ? variables[name] : whole;
  });
}
