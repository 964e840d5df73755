// A new merge request (GitLab's New merge request): choose the source and target branches, then see
// what the merge request would bring (its commits and the shared diff view) and fill in the title
// (GitLab's default: the only commit's title and body, or the branch name made readable), the
// description, people, labels, milestone, draft, squash and branch deletion. Opened through
// createMergeRequest, the service of POST /projects/:id/merge_requests, with its errors shown here.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { html, type Html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../../platform/web/page.js';
import { StatusError } from '../../platform/errors.js';
import { BRANCH_PREFIX, diffBetween, diffModeOf, mergeBase, readCommits, renderDiffView, repositoryRefs, revList, type CommitObject } from '../../repositories/api.js';
import { createMergeRequest } from '../create-merge-request.js';
import { draftTitle, isDraftTitle } from '../draft.js';
import { fullProject } from '../finder.js';
import { readRepository } from '../mr-repository.js';
import { formMetadata, metadataFields, metadataValuesOf, NO_METADATA, type MetadataValues } from './metadata-form.js';
import { mergeRequestCommits } from './commits.js';
import { mergeRequestSidebar, mergeRequestsRoot, str } from './shared.js';
import { attachControl } from '../../uploads/api.js';

export const NEW_MERGE_REQUEST_PATTERN = /^(?<path>.+?)\/-\/merge_requests\/new$/;
const COMMITS_SHOWN = 100;
const BRANCHES_OFFERED = 500;

interface Draft {
  title: string;
  description: string;
  draft: boolean;
  squash: boolean;
  removeSourceBranch: boolean;
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
  return { title, description: rest.join('\n').trim(), draft: false, squash: false, removeSourceBranch, metadata: NO_METADATA };
}

function branchPicker(root: string, branches: string[], source: string, target: string): Html {
  const options = (chosen: string) => branches.map((name) => html`<option value="${name}"${name === chosen ? html` selected` : ''}>${name}</option>`);
  return html`<form method="get" action="${root}/new" class="stacked" id="branch-picker">
<label for="mr-source-branch">Source branch</label><select id="mr-source-branch" name="merge_request[source_branch]"><option value="">Select source branch</option>${options(source)}</select>
<label for="mr-target-branch">Target branch</label><select id="mr-target-branch" name="merge_request[target_branch]">${options(target)}</select>
<p class="actions"><button type="submit">Compare branches and continue</button></p>
</form>`;
}

async function renderNew(context: PageContext, access: ProjectAccess, chosen: { source: string; target: string }, posted?: Draft, error?: string, status = 200): Promise<PageOutcome> {
  const { deps } = context;
  const root = mergeRequestsRoot(access);
  const base = `/${access.project.full_path}`;
  const target = (await fullProject(deps.db, Number(access.project.id)))!;
  const repoPath = await readRepository(deps, target);
  const refs = await repositoryRefs(repoPath);
  const branches = [...refs.keys()].filter((ref) => ref.startsWith(BRANCH_PREFIX)).map((ref) => ref.slice(BRANCH_PREFIX.length)).sort().slice(0, BRANCHES_OFFERED);
  const source = chosen.source;
  const targetBranch = chosen.target || access.project.default_branch || '';
  const sidebar = await mergeRequestSidebar(deps, access);
  const picker = branchPicker(root, branches, source, targetBranch);
  const sourceHead = refs.get(`${BRANCH_PREFIX}${source}`);
  const targetHead = refs.get(`${BRANCH_PREFIX}${targetBranch}`);
  const title = 'New merge request';
  if (!repoPath || !source || !sourceHead || !targetHead || source === targetBranch) {
    const problem = source && !sourceHead ? `Source branch "${source}" does not exist.` : source && source === targetBranch ? 'Choose two different branches.' : chosen.target && !targetHead ? `Target branch "${targetBranch}" does not exist.` : null;
    return page({ title: `${title} · ${access.project.name}`, heading: html`<h1>${title}</h1>`, body: html`${problem ? html`<p class="error" role="alert">${problem}</p>` : ''}${picker}`, sidebar, status: problem ? 400 : 200 });
  }
  const mergeBaseId = (await mergeBase(repoPath, [targetHead, sourceHead])) ?? targetHead;
  const ids = await revList(repoPath, { revisions: [sourceHead, `^${targetHead}`], maxCount: COMMITS_SHOWN });
  const commitMap = await readCommits(repoPath, ids);
  const commits = ids.flatMap((id) => (commitMap.has(id) ? [commitMap.get(id)!] : []));
  const draft = posted ?? defaults(source, commits, Number(target.remove_source_branch_after_merge) === 1);
  const mode = diffModeOf(context.query);
  const here = `${root}/new?${new URLSearchParams({ 'merge_request[source_branch]': source, 'merge_request[target_branch]': targetBranch }).toString()}`;
  const diff = commits.length
    ? await renderDiffView(await diffBetween(repoPath, mergeBaseId, sourceHead), { projectPath: access.project.full_path, oldSha: mergeBaseId, newSha: sourceHead, mode, modeUrl: (next) => `${here}&view=${next}` })
    : html`<p class="empty">${source} has no commits that ${targetBranch} lacks: there is nothing to merge.</p>`;
  const squashFixed = target.squash_option === 'always' || target.squash_option === 'never';
  const body = html`
<p>From <code>${source}</code> into <code>${targetBranch}</code> <a href="${root}/new?${new URLSearchParams({ 'merge_request[source_branch]': source, 'merge_request[target_branch]': targetBranch, change_branches: '1' }).toString()}">Change branches</a></p>
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<form method="post" action="${root}/new" class="stacked" id="new-merge-request-form">
${csrfField(context)}
<input type="hidden" name="source_branch" value="${source}"><input type="hidden" name="target_branch" value="${targetBranch}">
<label for="mr-title">Title</label><input type="text" id="mr-title" name="title" value="${draft.title}" required maxlength="255">
<p><input type="checkbox" id="mr-draft" name="draft" value="1"${draft.draft ? html` checked` : ''}> <label for="mr-draft">Mark as draft</label></p>
<label for="mr-description">Description</label><textarea id="mr-description" name="description">${draft.description}</textarea>
<p class="muted">Markdown is supported. <code>Closes #1</code> closes issue 1 when this merges into the default branch.</p>${attachControl(access.project.full_path)}
${await metadataFields(deps, access, draft.metadata)}
<fieldset><legend>Merge options</legend>
<p><input type="checkbox" id="mr-remove-source" name="remove_source_branch" value="1"${draft.removeSourceBranch ? html` checked` : ''}> <label for="mr-remove-source">Delete source branch when merge request is accepted.</label></p>
${squashFixed ? html`<p class="muted">Squashing is ${target.squash_option === 'always' ? 'required' : 'not allowed'} in this project.</p>` : html`<p><input type="checkbox" id="mr-squash" name="squash" value="1"${draft.squash || (!posted && target.squash_option === 'default_on') ? html` checked` : ''}> <label for="mr-squash">Squash commits when merge request is accepted.</label></p>`}
</fieldset>
<p class="actions"><button type="submit">Create merge request</button></p>
</form>
<h2>Commits <span class="badge">${commits.length}</span></h2>
${mergeRequestCommits(base, commits)}
<h2>Changes</h2>
${diff}`;
  return page({ title: `${title} · ${access.project.name}`, heading: html`<h1>${title}</h1>`, body, sidebar, status });
}

export async function renderNewMergeRequest(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const { query } = context;
  const source = str(query['merge_request[source_branch]']);
  const target = str(query['merge_request[target_branch]']);
  // "Change branches" goes back to the picker with the choice kept.
  if (query.change_branches) return renderNew(context, access, { source: '', target });
  return renderNew(context, access, { source, target });
}

export async function handleNewMergeRequest(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const { deps, form } = context;
  const source = str(form.source_branch);
  const targetBranch = str(form.target_branch);
  const checked = (name: string) => str(form[name]) === '1';
  const posted: Draft = { title: str(form.title).slice(0, 255), description: str(form.description).slice(0, 1_000_000), draft: checked('draft'), squash: checked('squash'), removeSourceBranch: checked('remove_source_branch'), metadata: metadataValuesOf(form) };
  const plain = posted.title.trim();
  if (!plain) return renderNew(context, access, { source, target: targetBranch }, posted, 'Title can’t be blank.', 400);
  const title = posted.draft && !isDraftTitle(plain) ? draftTitle(plain) : plain;
  const project = (await fullProject(deps.db, Number(access.project.id)))!;
  try {
    const mr = await createMergeRequest(deps, {
      source: project,
      target: project,
      authorId: context.user.id,
      title,
      description: posted.description || null,
      sourceBranch: source,
      targetBranch,
      metadata: await formMetadata(deps, access, posted.metadata),
      removeSourceBranch: posted.removeSourceBranch,
      squash: posted.squash,
    });
    return redirect(`${mergeRequestsRoot(access)}/${mr.iid}`, 'Merge request created.');
  } catch (error) {
    if (error instanceof StatusError && (error.status === 409 || error.status === 422)) {
      const message = Array.isArray(error.body) ? error.body.join(' ') : error.body;
      return renderNew(context, access, { source, target: targetBranch }, posted, message, error.status);
    }
    throw error;
  }
}
