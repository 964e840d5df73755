// The CI lint page (GitLab's `/<project>/-/ci/lint`): a `.gitlab-ci.yml` pasted into a form, checked by
// the parser POST /projects/:id/ci/lint uses, its errors and warnings in GitLab's words, and the jobs
// it defines with their stage, when, refs, environment and tags.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { page, type PageOutcome } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { MAX_YAML_BYTES } from '../config/parse-config.js';
import { parseCiConfigWithIncludes } from '../config/includes.js';
import { includeContext } from '../pipelines/include-reader.js';
import { findCommit, readableRepository } from '../../repositories/api.js';
import { projectBase } from './shared.js';

export const CI_LINT_PATTERN = /^(?<path>.+?)\/-\/ci\/lint$/;

/** As POST /projects/:id/ci/lint checks it: includes read at the default branch's head, as the viewer. */
async function lint(context: PageContext, access: ProjectAccess, content: string) {
  const { deps } = context;
  const repoPath = await readableRepository(deps, access.project);
  const commit = repoPath ? await findCommit(repoPath, 'HEAD') : null;
  return parseCiConfigWithIncludes(content, includeContext(deps, access.project, commit?.id ?? null, context.user?.id ?? null), deps.config.baseUrl);
}

export async function renderCiLint(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const posted = context.request.method === 'POST';
  const content = typeof context.form.content === 'string' ? context.form.content.slice(0, MAX_YAML_BYTES + 1) : '';
  const parsed = posted ? await lint(context, access, content) : null;
  const valid = parsed !== null && parsed.errors.length === 0;
  const jobs = parsed?.config?.jobs ?? [];
  const body = html`<form method="post" action="${projectBase(access)}/-/ci/lint" class="stacked" id="ci-lint">${csrfField(context)}
<label for="ci-lint-content">Contents of a .gitlab-ci.yml</label><textarea id="ci-lint-content" name="content" rows="16" spellcheck="false">${content}</textarea>
<p class="actions"><button type="submit">Validate</button></p>
</form>
${
  parsed === null
    ? ''
    : html`<section aria-labelledby="lint-result" id="ci-lint-result" data-valid="${String(valid)}"><h2 id="lint-result">${valid ? 'Syntax is correct.' : 'Syntax is incorrect.'}</h2>
${parsed.errors.length ? html`<div class="error" role="alert"><ul id="ci-lint-errors">${parsed.errors.map((error) => html`<li>${error}</li>`)}</ul></div>` : ''}
${parsed.warnings.length ? html`<ul class="muted" id="ci-lint-warnings">${parsed.warnings.map((warning) => html`<li>${warning}</li>`)}</ul>` : ''}
${
  jobs.length
    ? html`<div class="table-scroll"><table id="ci-lint-jobs"><thead><tr><th>Job</th><th>Stage</th><th>When</th><th>Only / except</th><th>Environment</th><th>Tags</th></tr></thead><tbody>${jobs.map(
        (job) => html`<tr><td class="wrap-anywhere"><code>${job.name}</code>${job.allowFailure ? html` <span class="badge">allowed to fail</span>` : ''}</td><td>${job.stage}</td><td>${job.when}</td><td>${job.only ? html`only: ${job.only.refs.join(', ')}` : ''}${job.except ? html` except: ${job.except.refs.join(', ')}` : ''}</td><td>${job.environment?.name ?? ''}</td><td>${job.tags.join(', ')}</td></tr>`,
      )}</tbody></table></div>`
    : ''
}</section>`
}`;
  return page({ title: `CI lint · ${access.project.name}`, heading: html`<h1>Validate your GitLab CI configuration</h1>`, body, sidebar: projectSidebar(access, 'pipelines') });
}
