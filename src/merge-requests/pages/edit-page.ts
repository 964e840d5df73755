// Editing a merge request: title, description, target branch, assignee, reviewers, labels,
// milestone and the merge options, saved through updateMergeRequest (the service of PUT …/:iid).
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../../platform/web/page.js';
import { StatusError } from '../../platform/errors.js';
import { usersById } from '../../issues/api.js';
import { assigneeIdsOf, reviewerIdsOf } from '../finder.js';
import { updateMergeRequest } from '../update-merge-request.js';
import { formMetadata, metadataFields, metadataValuesOf, type MetadataValues } from './metadata-form.js';
import { load, type Loaded } from './show-page.js';
import { mergeRequestSidebar, str } from './shared.js';

export const EDIT_PATTERN = /^(?<path>.+?)\/-\/merge_requests\/(?<iid>\d{1,9})\/edit$/;

interface EditValues {
  title: string;
  description: string;
  targetBranch: string;
  squash: boolean;
  removeSourceBranch: boolean;
  metadata: MetadataValues;
}

async function currentValues(context: PageContext, loaded: Loaded): Promise<EditValues> {
  const { deps } = context;
  const { mr } = loaded;
  const [assignees, reviewers, labels] = await Promise.all([
    assigneeIdsOf(deps, Number(mr.id)),
    reviewerIdsOf(deps, Number(mr.id)),
    deps.db.selectFrom('merge_request_label_links as ll').innerJoin('labels as l', 'l.id', 'll.label_id').select('l.title').where('ll.merge_request_id', '=', Number(mr.id)).orderBy('l.title').execute(),
  ]);
  const users = await usersById(deps.db, [...assignees, ...reviewers]);
  const names = (ids: number[]) => ids.flatMap((id) => (users.has(id) ? [users.get(id)!.username] : [])).join(', ');
  return {
    title: mr.title,
    description: mr.description ?? '',
    targetBranch: mr.target_branch,
    squash: Number(mr.squash) === 1,
    removeSourceBranch: Number(mr.force_remove_source_branch) === 1,
    metadata: { assignees: names(assignees), reviewers: names(reviewers), labels: labels.map((label) => label.title).join(', '), milestoneId: mr.milestone_id === null ? '' : String(mr.milestone_id) },
  };
}

async function renderForm(context: PageContext, access: ProjectAccess, loaded: Loaded, values: EditValues, error?: string, status = 200): Promise<PageOutcome> {
  const { self, mr } = loaded;
  const body = html`${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<form method="post" action="${self}/edit" class="stacked" id="edit-merge-request-form">${csrfField(context)}
<label for="mr-title">Title</label><input type="text" id="mr-title" name="title" value="${values.title}" required maxlength="255">
<p class="muted">Start the title with <code>Draft:</code> to mark the merge request as a draft.</p>
<label for="mr-description">Description</label><textarea id="mr-description" name="description">${values.description}</textarea>
<label for="mr-target-branch">Target branch</label><input type="text" id="mr-target-branch" name="target_branch" value="${values.targetBranch}" required maxlength="255">
${await metadataFields(context.deps, access, values.metadata)}
<fieldset><legend>Merge options</legend>
<p><input type="checkbox" id="mr-remove-source" name="remove_source_branch" value="1"${values.removeSourceBranch ? html` checked` : ''}> <label for="mr-remove-source">Delete source branch when merge request is accepted.</label></p>
<p><input type="checkbox" id="mr-squash" name="squash" value="1"${values.squash ? html` checked` : ''}> <label for="mr-squash">Squash commits when merge request is accepted.</label></p>
</fieldset>
<p class="actions"><button type="submit">Save changes</button> <a href="${self}">Cancel</a></p>
</form>`;
  return page({ title: `Edit !${mr.iid} · ${access.project.name}`, heading: html`<h1>Edit merge request !${mr.iid}</h1>`, body, sidebar: await mergeRequestSidebar(context.deps, access), status });
}

export async function renderEdit(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const loaded = await load(context, access);
  return renderForm(context, access, loaded, await currentValues(context, loaded));
}

export async function handleEdit(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const { deps, form, user } = context;
  const loaded = await load(context, access);
  const checked = (name: string) => str(form[name]) === '1';
  const values: EditValues = { title: str(form.title).slice(0, 255), description: str(form.description).slice(0, 1_000_000), targetBranch: str(form.target_branch).slice(0, 255), squash: checked('squash'), removeSourceBranch: checked('remove_source_branch'), metadata: metadataValuesOf(form) };
  if (!values.title.trim()) return renderForm(context, access, loaded, values, 'Title can’t be blank.', 400);
  if (!values.targetBranch.trim()) return renderForm(context, access, loaded, values, 'Target branch can’t be blank.', 400);
  try {
    await updateMergeRequest(deps, user.id, loaded.mr, loaded.target, {
      title: values.title.trim(),
      description: values.description,
      ...(values.targetBranch !== loaded.mr.target_branch ? { targetBranch: values.targetBranch } : {}),
      metadata: await formMetadata(deps, access, values.metadata),
      removeSourceBranch: values.removeSourceBranch,
      squash: values.squash,
    });
    return redirect(loaded.self, 'Merge request updated.');
  } catch (error) {
    if (error instanceof StatusError && error.status < 500) return renderForm(context, access, loaded, values, Array.isArray(error.body) ? error.body.join(' ') : String(error.body), error.status);
    throw error;
  }
}
