// A new merge request (GitLab's New merge request): choose the source and target branches, then see
// what the merge request would bring (its commits and the shared diff view) and fill in the title
// (GitLab's default: the only commit's title and body, or the branch name made readable), the
// description, people, labels, milestone, draft, squash and branch deletion. A fork may open it into
// its upstream (new-target.ts): the target's branches are offered, the comparison runs in the fork's
// repository (the upstream's head fetched into it), and collaboration may be allowed. Opened through
// createMergeRequest, the service of POST /projects/:id/merge_requests, with its errors shown here.
// The target project's description templates are offered (the templates feature's picker, through
// issues' hook): `issuable_template` fills the description with one, and a `Default` template fills
// it when the commits left it empty (GitLab's BuildService takes the default for a blank description).
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { html, type Html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../../platform/web/page.js';
import { NotFoundError, StatusError } from '../../platform/errors.js';
import { BRANCH_PREFIX, diffBetween, diffModeOf, mergeBase, readCommits, renderDiffView, repositoryRefs, revList, type CommitObject } from '../../repositories/api.js';
import { createMergeRequest } from '../create-merge-request.js';
import { newMergeRequestDescription } from '../commit-messages.js';
import { draftTitle, isDraftTitle } from '../draft.js';
import { fullProject } from '../finder.js';
import { readRepository, targetCommitIn } from '../mr-repository.js';
import { targetChoice, type TargetChoice } from './new-target.js';
import { formMetadata, metadataFields, metadataValuesOf, NO_METADATA, type MetadataValues } from './metadata-form.js';
import { mergeRequestCommits } from './commits.js';
import { mergeRequestSidebar, mergeRequestsRoot, str } from './shared.js';
import { attachControl } from '../../uploads/api.js';
import { issueHooks, NO_ISSUABLE_TEMPLATES } from '../../issues/api.js';

export const NEW_MERGE_REQUEST_PATTERN = /^(?<path>.+?)\/-\/merge_requests\/new$/;
const COMMITS_SHOWN = 100;
const BRANCHES_OFFERED = 500;

interface Chosen {
  source: string;
  target: string;
  /** `merge_request[target_project_id]`; null for the default target. */
  targetProjectId: number | null;
}

interface Draft {
  title: string;
  description: string;
  draft: boolean;
  squash: boolean;
  removeSourceBranch: boolean;
  allowCollaboration: boolean;
  metadata: MetadataValues;
}

/** GitLab's default title: the branch name with dashes and underscores as spaces, capitalised. */
function titleFromBranch(branch: string): string {
  const words = branch.replace(/[-_]+/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : branch;
}

function defaults(branch: string, commits: CommitObject[], removeSourceBranch: boolean): Draft {
  const only = commits.length === 1 ? commits[0].message.trim() : null;
  const [title, ...rest] = only ? only.split('\n') : [titleFromBranch(branch)];
  return { title, description: rest.join('\n').trim(), draft: false, squash: false, removeSourceBranch, allowCollaboration: true, metadata: NO_METADATA };
}

function branchPicker(root: string, branches: { source: string[]; target: string[] }, source: string, target: string, targets: TargetChoice): Html {
  const options = (names: string[], chosen: string) => names.map((name) => html`<option value="${name}"${name === chosen ? html` selected` : ''}>${name}</option>`);
  const chosenId = Number(targets.chosen.project.id);
  // Changing the target project offers its branches: the page comes back with that project chosen.
  const projects = targets.offered.length > 1
    ? html`<label for="mr-target-project">Target project</label><select id="mr-target-project" name="merge_request[target_project_id]">${targets.offered.map((access) => html`<option value="${access.project.id}"${Number(access.project.id) === chosenId ? html` selected` : ''}>${access.project.full_path}</option>`)}</select>`
    : '';
  return html`<form method="get" action="${root}/new" class="stacked" id="branch-picker">
<label for="mr-source-branch">Source branch</label><select id="mr-source-branch" name="merge_request[source_branch]"><option value="">Select source branch</option>${options(branches.source, source)}</select>
${projects}
<label for="mr-target-branch">Target branch</label><select id="mr-target-branch" name="merge_request[target_branch]">${options(branches.target, target)}</select>
<p class="actions"><button type="submit">Compare branches and continue</button></p>
</form>`;
}

const branchNames = (refs: Map<string, string>) => [...refs.keys()].filter((ref) => ref.startsWith(BRANCH_PREFIX)).map((ref) => ref.slice(BRANCH_PREFIX.length)).sort().slice(0, BRANCHES_OFFERED);

async function renderNew(context: PageContext, access: ProjectAccess, chosen: Chosen, posted?: Draft, error?: string, status = 200): Promise<PageOutcome> {
  const { deps } = context;
  const root = mergeRequestsRoot(access);
  const base = `/${access.project.full_path}`;
  const sourceRow = (await fullProject(deps.db, Number(access.project.id)))!;
  const targets = await targetChoice(deps, context.user, { ...access, project: sourceRow }, chosen.targetProjectId);
  const target = targets.chosen.project;
  const crossProject = Number(target.id) !== Number(sourceRow.id);
  const repoPath = await readRepository(deps, sourceRow);
  const targetRepoPath = crossProject ? await readRepository(deps, target) : repoPath;
  const refs = await repositoryRefs(repoPath);
  const targetRefs = crossProject ? await repositoryRefs(targetRepoPath) : refs;
  const source = chosen.source;
  const targetBranch = chosen.target || target.default_branch || '';
  const sidebar = await mergeRequestSidebar(deps, access);
  const picker = branchPicker(root, { source: branchNames(refs), target: branchNames(targetRefs) }, source, targetBranch, targets);
  const sourceHead = refs.get(`${BRANCH_PREFIX}${source}`);
  const targetHead = targetRefs.get(`${BRANCH_PREFIX}${targetBranch}`);
  const title = 'New merge request';
  const sameBranch = !crossProject && source === targetBranch;
  if (!repoPath || !targetRepoPath || !source || !sourceHead || !targetHead || sameBranch || !(await targetCommitIn(repoPath, targetRepoPath, targetBranch, targetHead))) {
    const problem = source && !sourceHead ? `Source branch "${source}" does not exist.` : source && sameBranch ? 'Choose two different branches.' : chosen.target && !targetHead ? `Target branch "${targetBranch}" does not exist.` : null;
    return page({ title: `${title} · ${access.project.name}`, heading: html`<h1>${title}</h1>`, body: html`${problem ? html`<p class="error" role="alert">${problem}</p>` : ''}${picker}`, sidebar, status: problem ? 400 : 200 });
  }
  const mergeBaseId = (await mergeBase(repoPath, [targetHead, sourceHead])) ?? targetHead;
  const ids = await revList(repoPath, { revisions: [sourceHead, `^${targetHead}`], maxCount: COMMITS_SHOWN });
  const commitMap = await readCommits(repoPath, ids);
  const commits = ids.flatMap((id) => (commitMap.has(id) ? [commitMap.get(id)!] : []));
  const built = defaults(source, commits, Number(sourceRow.remove_source_branch_after_merge) === 1);
  const asked = context.query.issuable_template;
  const targetId: Record<string, string> = crossProject ? { 'merge_request[target_project_id]': String(target.id) } : {};
  const templates = await (issueHooks(deps).issuableTemplates?.(targets.chosen, 'merge_requests', {
    asked: posted || typeof asked !== 'string' ? undefined : asked, fresh: !posted && !built.description,
    action: `${root}/new`, hidden: { 'merge_request[source_branch]': source, 'merge_request[target_branch]': targetBranch, ...targetId }, textarea: 'mr-description',
  }) ?? NO_ISSUABLE_TEMPLATES);
  // The template's %{…} variables are filled here, so the picker's in-place fill (which loads this page) gets them too.
  // `co_authored_by` leaves out the creator's own commits, as a merge leaves out the merger's.
  const creatorEmail = async () => (context.user ? (await deps.db.selectFrom('users').select('email').where('id', '=', context.user.id).executeTakeFirst())?.email ?? '' : '');
  const description = templates.content === undefined ? undefined : newMergeRequestDescription(templates.content, { sourceBranch: source, targetBranch, title: built.title, commits, coAuthorExcept: await creatorEmail() });
  const draft = posted ?? (description === undefined ? built : { ...built, description });
  const named = (project: { full_path: string }, branch: string) => (crossProject ? `${project.full_path}:${branch}` : branch);
  const mode = diffModeOf(context.query);
  const here = `${root}/new?${new URLSearchParams({ 'merge_request[source_branch]': source, 'merge_request[target_branch]': targetBranch, ...targetId }).toString()}`;
  const diff = commits.length
    ? await renderDiffView(await diffBetween(repoPath, mergeBaseId, sourceHead), { projectPath: access.project.full_path, oldSha: mergeBaseId, newSha: sourceHead, mode, modeUrl: (next) => `${here}&view=${next}` })
    : html`<p class="empty">${source} has no commits that ${targetBranch} lacks: there is nothing to merge.</p>`;
  const squashFixed = target.squash_option === 'always' || target.squash_option === 'never';
  const body = html`
<p>From <code>${named(sourceRow, source)}</code> into <code>${named(target, targetBranch)}</code> <a href="${root}/new?${new URLSearchParams({ 'merge_request[source_branch]': source, 'merge_request[target_branch]': targetBranch, ...targetId, change_branches: '1' }).toString()}">Change branches</a></p>
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<form method="post" action="${root}/new" class="stacked" id="new-merge-request-form">
${csrfField(context)}
<input type="hidden" name="source_branch" value="${source}"><input type="hidden" name="target_branch" value="${targetBranch}">${crossProject ? html`<input type="hidden" name="target_project_id" value="${target.id}">` : ''}
<label for="mr-title">Title</label><input type="text" id="mr-title" name="title" value="${draft.title}" required maxlength="255">
<p><input type="checkbox" id="mr-draft" name="draft" value="1"${draft.draft ? html` checked` : ''}> <label for="mr-draft">Mark as draft</label></p>
${templates.control}
<label for="mr-description">Description</label><textarea id="mr-description" name="description">${draft.description}</textarea>
<p class="muted">Markdown is supported. <code>Closes #1</code> closes issue 1 when this merges into the default branch.</p>${attachControl(access.project.full_path)}
${await metadataFields(deps, targets.chosen, draft.metadata)}
<fieldset><legend>Merge options</legend>
<p><input type="checkbox" id="mr-remove-source" name="remove_source_branch" value="1"${draft.removeSourceBranch ? html` checked` : ''}> <label for="mr-remove-source">Delete source branch when merge request is accepted.</label></p>
${crossProject ? html`<p><input type="checkbox" id="mr-allow-collaboration" name="allow_collaboration" value="1"${draft.allowCollaboration ? html` checked` : ''}> <label for="mr-allow-collaboration">Allow commits from members who can merge to the target branch.</label></p>` : ''}
${squashFixed ? html`<p class="muted">Squashing is ${target.squash_option === 'always' ? 'required' : 'not allowed'} in this project.</p>` : html`<p><input type="checkbox" id="mr-squash" name="squash" value="1"${draft.squash || (!posted && target.squash_option === 'default_on') ? html` checked` : ''}> <label for="mr-squash">Squash commits when merge request is accepted.</label></p>`}
</fieldset>
<p class="actions"><button type="submit">Create merge request</button></p>
</form>
${templates.form}
<h2>Commits <span class="badge">${commits.length}</span></h2>
${mergeRequestCommits(base, commits)}
<h2>Changes</h2>
${diff}`;
  return page({ title: `${title} · ${access.project.name}`, heading: html`<h1>${title}</h1>`, body, sidebar, status });
}

/** A project id as a form or query gives it; anything else is no choice. */
function projectIdOf(value: string): number | null {
  return /^\d{1,15}$/.test(value) ? Number(value) : null;
}

export async function renderNewMergeRequest(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const { query } = context;
  const source = str(query['merge_request[source_branch]']);
  const target = str(query['merge_request[target_branch]']);
  const targetProjectId = projectIdOf(str(query['merge_request[target_project_id]']));
  // "Change branches" goes back to the picker with the choice kept.
  if (query.change_branches) return renderNew(context, access, { source: '', target, targetProjectId });
  return renderNew(context, access, { source, target, targetProjectId });
}

export async function handleNewMergeRequest(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const { deps, form } = context;
  const source = str(form.source_branch);
  const targetBranch = str(form.target_branch);
  const targetProjectId = projectIdOf(str(form.target_project_id));
  const chosen = { source, target: targetBranch, targetProjectId: targetProjectId ?? Number(access.project.id) };
  const checked = (name: string) => str(form[name]) === '1';
  const posted: Draft = {
    title: str(form.title).slice(0, 255), description: str(form.description).slice(0, 1_000_000), draft: checked('draft'), squash: checked('squash'),
    removeSourceBranch: checked('remove_source_branch'), allowCollaboration: checked('allow_collaboration'), metadata: metadataValuesOf(form),
  };
  const plain = posted.title.trim();
  if (!plain) return renderNew(context, access, chosen, posted, 'Title can’t be blank.', 400);
  const title = posted.draft && !isDraftTitle(plain) ? draftTitle(plain) : plain;
  const project = (await fullProject(deps.db, Number(access.project.id)))!;
  // Without a target_project_id the form targets the project itself (as it always did).
  const targets = await targetChoice(deps, context.user, { ...access, project }, chosen.targetProjectId);
  if (Number(targets.chosen.project.id) !== chosen.targetProjectId) throw new NotFoundError('Project');
  const target = targets.chosen.project;
  try {
    const mr = await createMergeRequest(deps, {
      source: project,
      target,
      authorId: context.user.id,
      title,
      description: posted.description || null,
      sourceBranch: source,
      targetBranch,
      metadata: await formMetadata(deps, targets.chosen, posted.metadata),
      removeSourceBranch: posted.removeSourceBranch,
      allowCollaboration: Number(target.id) !== Number(project.id) && posted.allowCollaboration,
      squash: posted.squash,
    });
    return redirect(`${mergeRequestsRoot(targets.chosen)}/${mr.iid}`, 'Merge request created.');
  } catch (error) {
    if (error instanceof StatusError && (error.status === 409 || error.status === 422)) {
      const message = Array.isArray(error.body) ? error.body.join(' ') : error.body;
      return renderNew(context, access, chosen, posted, message, error.status);
    }
    throw error;
  }
}
