// A project's repository settings at `/<project>/-/settings/repository` (GitLab's Settings ›
// Repository): its protected branches and protected tags, each listed with its access levels, a form
// to protect a name or wildcard and a button to unprotect. The forms call the same services as the
// API (protected-branches/, its tag-*.ts for tags), so the rules and their messages are the API's.
import { runManualHousekeeping } from '../housekeeping/manual.js';
import { LEASE_TAKEN_MESSAGE } from '../housekeeping/lease.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { html, type Html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { page, redirect } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { canOnProject } from '../../platform/auth/policies/policy.js';
import { PROTECTED_REF_LEVEL_NAMES, PROTECTED_REF_LEVELS } from '../../platform/auth/policies/index.js';
import { ConflictError, RecordNotFoundError } from '../../platform/errors.js';
import { ApiError } from '../../platform/http/api-error.js';
import { projectRules } from '../protected-branches/finder.js';
import { createProtectedBranch } from '../protected-branches/create-protected-branch.js';
import { deleteProtectedBranch } from '../protected-branches/delete-protected-branch.js';
import { projectTagRules } from '../protected-branches/tag-finder.js';
import { protectTag, unprotectTag } from '../protected-branches/protect-tag.js';

export const REPOSITORY_SETTINGS_PATTERN = /^(?<path>.+?)\/-\/settings\/repository$/;
export const PROTECT_BRANCH_PATTERN = /^(?<path>.+?)\/-\/protected_branches$/;
export const UNPROTECT_BRANCH_PATTERN = /^(?<path>.+?)\/-\/protected_branches\/delete$/;
export const PROTECT_TAG_PATTERN = /^(?<path>.+?)\/-\/protected_tags$/;
export const UNPROTECT_TAG_PATTERN = /^(?<path>.+?)\/-\/protected_tags\/delete$/;
export const HOUSEKEEPING_PATTERN = /^(?<path>.+?)\/-\/housekeeping$/;

/** The levels a form offers, in GitLab's order; the administrators' level is the API's alone. */
const FORM_LEVELS = [PROTECTED_REF_LEVELS.maintainer, PROTECTED_REF_LEVELS.developer, PROTECTED_REF_LEVELS.noOne];

function field(form: Record<string, string | string[]>, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value : '';
}

function levelSelect(id: string, name: string, label: string): Html {
  return html`<label for="${id}">${label}</label><select id="${id}" name="${name}">${FORM_LEVELS.map((level) => html`<option value="${level}">${PROTECTED_REF_LEVEL_NAMES[level]}</option>`)}</select>`;
}

/** A level from a form: one the form offers, or null (a forged value is refused, not stored). */
function formLevel(value: string): number | null {
  const level = Number(value);
  return FORM_LEVELS.some((allowed) => allowed === level) ? level : null;
}

function describeLevels(levels: readonly { access_level: number }[]): string {
  return levels.map((level) => PROTECTED_REF_LEVEL_NAMES[Number(level.access_level)] ?? String(level.access_level)).join(', ');
}

function unprotectButton(context: PageContext, action: string, name: string): Html {
  return html`<form class="inline" method="post" action="${action}" data-confirm="Unprotect ${name}?">${csrfField(context)}<input type="hidden" name="name" value="${name}"><button type="submit" class="small danger" aria-label="Unprotect ${name}">Unprotect</button></form>`;
}

export async function renderRepositorySettings(context: PageContext, access: ProjectAccess) {
  const base = `/${access.project.full_path}`;
  const projectId = Number(access.project.id);
  const [branchRules, tagRules] = await Promise.all([projectRules(context.deps.db, projectId), projectTagRules(context.deps.db, projectId)]);
  const mayProtectBranches = canOnProject(access, 'admin_protected_branch');
  const body = html`<section aria-labelledby="protected-branches-heading">
<h2 id="protected-branches-heading">Protected branches</h2>
<p class="muted">Keep stable branches secure: choose who may push to and merge into them. A wildcard such as <code>release/*</code> protects every branch it matches.</p>
${mayProtectBranches ? html`<form class="stacked" method="post" action="${base}/-/protected_branches" id="protect-branch">${csrfField(context)}
<label for="protected-branch-name">Branch</label><input type="text" id="protected-branch-name" name="name" required placeholder="main or release/*">
${levelSelect('protected-branch-merge', 'merge_access_level', 'Allowed to merge')}
${levelSelect('protected-branch-push', 'push_access_level', 'Allowed to push and merge')}
<label class="checkbox"><input type="checkbox" name="allow_force_push" value="1"> Allowed to force push</label>
<p class="actions"><button type="submit">Protect</button></p></form>` : ''}
${branchRules.length
    ? html`<div class="code-scroll"><table id="protected-branches"><caption class="visually-hidden">Protected branches</caption><thead><tr><th scope="col">Branch</th><th scope="col">Allowed to merge</th><th scope="col">Allowed to push and merge</th><th scope="col">Force push</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead><tbody>
${branchRules.map((rule) => html`<tr data-protected-branch="${rule.branch.name}"><td><code>${rule.branch.name}</code></td><td>${describeLevels(rule.merge)}</td><td>${describeLevels(rule.push)}</td><td>${Number(rule.branch.allow_force_push) === 1 ? 'Allowed' : 'Not allowed'}</td><td>${mayProtectBranches ? unprotectButton(context, `${base}/-/protected_branches/delete`, rule.branch.name) : ''}</td></tr>`)}
</tbody></table></div>`
    : html`<p class="empty">No branch is protected.</p>`}
</section>
<section aria-labelledby="protected-tags-heading">
<h2 id="protected-tags-heading">Protected tags</h2>
<p class="muted">Limit who may create tags, and keep them from being updated or deleted. A wildcard such as <code>v*</code> protects every tag it matches.</p>
<form class="stacked" method="post" action="${base}/-/protected_tags" id="protect-tag">${csrfField(context)}
<label for="protected-tag-name">Tag</label><input type="text" id="protected-tag-name" name="name" required placeholder="v1.0 or v*">
${levelSelect('protected-tag-create', 'create_access_level', 'Allowed to create')}
<p class="actions"><button type="submit">Protect</button></p></form>
${tagRules.length
    ? html`<div class="code-scroll"><table id="protected-tags"><caption class="visually-hidden">Protected tags</caption><thead><tr><th scope="col">Tag</th><th scope="col">Allowed to create</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead><tbody>
${tagRules.map((rule) => html`<tr data-protected-tag="${rule.tag.name}"><td><code>${rule.tag.name}</code></td><td>${describeLevels(rule.create)}</td><td>${unprotectButton(context, `${base}/-/protected_tags/delete`, rule.tag.name)}</td></tr>`)}
</tbody></table></div>`
    : html`<p class="empty">No tag is protected.</p>`}
</section>
<section aria-labelledby="deploy-credentials-heading">
<h2 id="deploy-credentials-heading">Deploy keys and tokens</h2>
<p class="muted">Give a server or a CI machine access to this repository without a person's account: <a href="${base}/-/deploy_keys">deploy keys</a> over SSH, <a href="${base}/-/deploy_tokens">deploy tokens</a> over HTTPS.</p>
</section>
<section aria-labelledby="housekeeping-heading">
<h2 id="housekeeping-heading">Housekeeping</h2>
<p class="muted">Kiln packs the repository's objects every few pushes on its own. Run it now after a large import or a history rewrite; pruning also removes objects no branch or tag reaches any more (older than 30 minutes).</p>
<form class="inline" method="post" action="${base}/-/housekeeping">${csrfField(context)}<button type="submit">Run housekeeping</button></form>
<form class="inline" method="post" action="${base}/-/housekeeping" data-confirm="Prune the objects no branch or tag reaches? They cannot be recovered afterwards.">${csrfField(context)}<input type="hidden" name="prune" value="true"><button type="submit" class="danger">Prune unreachable objects</button></form>
</section>`;
  return page({ title: `Repository settings · ${access.project.name}`, heading: html`<h1>Repository settings</h1>`, body, sidebar: projectSidebar(access, 'repository_settings') });
}

const settingsUrl = (access: ProjectAccess) => `/${access.project.full_path}/-/settings/repository`;

/** The refusal a form shows: the service's own message (409, 422, 404), as the API would answer. */
function refusal(error: unknown): string | null {
  if (error instanceof ConflictError) return error.message;
  if (error instanceof ApiError) {
    const message = error.body.message;
    return Array.isArray(message) ? message.join(', ') : String(message);
  }
  if (error instanceof RecordNotFoundError) return 'Not found: it is no longer protected.';
  return null;
}

async function settle(access: ProjectAccess, done: string, action: () => Promise<unknown>) {
  try {
    await action();
    return redirect(settingsUrl(access), done);
  } catch (error) {
    const message = refusal(error);
    if (message === null) throw error;
    return redirect(settingsUrl(access), message);
  }
}

export async function protectBranchFromForm(context: PageContext, access: ProjectAccess) {
  const name = field(context.form, 'name').trim();
  const push = formLevel(field(context.form, 'push_access_level'));
  const merge = formLevel(field(context.form, 'merge_access_level'));
  if (name === '' || push === null || merge === null) return redirect(settingsUrl(access), 'Give a branch name and access levels.');
  return settle(access, `Branch ${name} is protected.`, () =>
    createProtectedBranch(context.deps, { projectId: Number(access.project.id), name, pushAccessLevel: push, mergeAccessLevel: merge, allowForcePush: field(context.form, 'allow_force_push') === '1' }),
  );
}

export async function unprotectBranchFromForm(context: PageContext, access: ProjectAccess) {
  const name = field(context.form, 'name');
  return settle(access, `Branch ${name} is no longer protected.`, () => deleteProtectedBranch(context.deps, Number(access.project.id), name));
}

export async function protectTagFromForm(context: PageContext, access: ProjectAccess) {
  const name = field(context.form, 'name').trim();
  const level = formLevel(field(context.form, 'create_access_level'));
  if (name === '' || level === null) return redirect(settingsUrl(access), 'Give a tag name and an access level.');
  return settle(access, `Tag ${name} is protected.`, () => protectTag(context.deps, { projectId: Number(access.project.id), name, createAccessLevel: level }));
}

export async function unprotectTagFromForm(context: PageContext, access: ProjectAccess) {
  const name = field(context.form, 'name');
  return settle(access, `Tag ${name} is no longer protected.`, () => unprotectTag(context.deps, Number(access.project.id), name));
}

/** GitLab's ProjectsController#housekeeping: a full gc, or with `prune` also the unreachable objects (housekeeping/tasks.ts). */
export async function housekeepingFromForm(context: PageContext, access: ProjectAccess) {
  const task = context.form.prune === 'true' ? 'prune' : 'eager';
  const queued = await runManualHousekeeping(context.deps, access.project, task);
  return redirect(settingsUrl(access), queued === null ? LEASE_TAKEN_MESSAGE : 'Housekeeping successfully started');
}
