// Editing one CI/CD variable of a project (Settings › CI/CD › Edit): its value, type, environment
// scope, description and flags, through the variables API's store and rules (PUT
// /projects/:id/variables/:key), its messages on the form. A masked variable's value is never
// written into the page, nor into a refused form; leaving it empty keeps the stored value.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import { html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { ownedBy, updateVariable, type CiVariableRow, type VariableOwner } from '../cicd-variables/variables-store.js';
import { errorLines, errorList, formValues, readVariableForm, variableFields, type VariableFormValues } from './variable-form.js';
import { projectBase } from './shared.js';

export const VARIABLE_EDIT_PATTERN = /^(?<path>.+?)\/-\/settings\/ci_cd\/variables\/(?<id>\d{1,12})\/edit$/;

const ownerOf = (access: ProjectAccess): VariableOwner => ({ kind: 'project', id: Number(access.project.id) });

async function variableOf(context: PageContext, access: ProjectAccess): Promise<CiVariableRow> {
  const row = await ownedBy(context.deps.db, ownerOf(access)).where('id', '=', Number(context.match.id)).executeTakeFirst();
  if (!row) throw new NotFoundError('Variable');
  return row;
}

function storedValues(context: PageContext, row: CiVariableRow): VariableFormValues {
  const masked = Number(row.masked) === 1;
  return {
    key: row.key, value: masked ? '' : context.deps.box.open(row.value_sealed), variable_type: row.variable_type, environment_scope: row.environment_scope, description: row.description ?? '',
    ...(Number(row.protected) === 1 ? { protected: 'true' } : {}), ...(masked ? { masked: 'true' } : {}), ...(Number(row.raw) === 1 ? {} : { expand: 'true' }),
  };
}

function editPage(context: PageContext, access: ProjectAccess, row: CiVariableRow, form: VariableFormValues, errors?: string[]): PageOutcome {
  const settings = `${projectBase(access)}/-/settings/ci_cd`;
  const body = html`${errorList('variable-errors', errors)}
<form method="post" action="${settings}/variables/${Number(row.id)}/edit" class="stacked" id="edit-variable">${csrfField(context)}
<p>Key: <code class="wrap-anywhere">${row.key}</code></p>
${variableFields(form, { fresh: false, keepMasked: Number(row.masked) === 1 })}
<p class="actions"><button type="submit">Update variable</button> <a class="button secondary" href="${settings}#variables">Cancel</a></p>
</form>`;
  return page({ status: errors ? 422 : 200, title: `Edit variable ${row.key} · CI/CD settings · ${access.project.name}`, heading: html`<h1 class="wrap-anywhere">Edit variable ${row.key}</h1>`, body, sidebar: projectSidebar(access, 'ci_cd_settings') });
}

export async function renderVariableEdit(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const row = await variableOf(context, access);
  return editPage(context, access, row, storedValues(context, row));
}

export async function updateVariableFromForm(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const row = await variableOf(context, access);
  const input = readVariableForm(context);
  // The page never showed a masked value, so an empty one means "unchanged".
  const value = Number(row.masked) === 1 && input.value === '' ? undefined : input.value;
  try {
    await updateVariable(context.deps, ownerOf(access), row, { ...input, key: undefined, value, description: input.description ?? '' });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return editPage(context, access, row, { ...formValues({ ...input, key: row.key }), ...(Number(row.masked) === 1 || input.masked ? { value: '' } : {}) }, errorLines(error));
  }
  return redirect(`${projectBase(access)}/-/settings/ci_cd#variables`, `Variable ${row.key} was updated.`);
}
