// Creating, changing and deleting a label from the pages (admin_label), with the API's checks
// (createLabel, updateLabel: title, colour, description, a title the parent already sees). A refused
// form comes back with what was typed and each error next to its field.
import { html, type Html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { page, redirect } from '../../platform/web/page.js';
import { ConflictError, ForbiddenError, ValidationError } from '../../platform/errors.js';
import { createLabel } from '../create-label.js';
import { updateLabel } from '../update-label.js';
import { deleteLabel } from '../delete-label.js';
import type { LabelRow } from '../entities.js';
import { ownLabel, type LabelPageParent } from './shared.js';

export const PROJECT_NEW_LABEL_PATTERN = /^(?<path>(?!groups\/).+?)\/-\/labels\/new$/;
export const GROUP_NEW_LABEL_PATTERN = /^groups\/(?<path>.+?)\/-\/labels\/new$/;
export const PROJECT_EDIT_LABEL_PATTERN = /^(?<path>(?!groups\/).+?)\/-\/labels\/(?<id>\d{1,12})\/edit$/;
export const GROUP_EDIT_LABEL_PATTERN = /^groups\/(?<path>.+?)\/-\/labels\/(?<id>\d{1,12})\/edit$/;
export const PROJECT_DELETE_LABEL_PATTERN = /^(?<path>(?!groups\/).+?)\/-\/labels\/(?<id>\d{1,12})\/delete$/;
export const GROUP_DELETE_LABEL_PATTERN = /^groups\/(?<path>.+?)\/-\/labels\/(?<id>\d{1,12})\/delete$/;

const DEFAULT_COLOR = '#6699cc';

interface Values {
  title: string;
  color: string;
  description: string;
  priority: string;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function valuesOf(label: LabelRow | undefined): Values {
  return { title: label?.title ?? '', color: label?.color ?? DEFAULT_COLOR, description: label?.description ?? '', priority: label?.priority === null || label?.priority === undefined ? '' : String(label.priority) };
}

function field(name: string, label: string, control: (attrs: Html) => Html, errors: Record<string, string>): Html {
  const error = errors[name];
  const attrs = error ? html` aria-invalid="true" aria-describedby="label-${name}-error"` : html``;
  return html`<label for="label-${name}">${label}</label>${control(attrs)}${error ? html`<p class="field-error" id="label-${name}-error">${error}</p>` : ''}`;
}

function renderForm(context: PageContext, target: LabelPageParent, label: LabelRow | undefined, values: Values, errors: Record<string, string> = {}, status = 200) {
  const root = `${target.base}/-/labels`;
  const action = label ? `${root}/${label.id}/edit` : `${root}/new`;
  // <input type=color> only takes #rrggbb: a stored #rgb or named colour is offered as text beside it.
  const picker = /^#[0-9a-f]{6}$/i.test(values.color) ? values.color : DEFAULT_COLOR;
  const body = html`
${Object.keys(errors).length ? html`<p class="error" role="alert">The label was not saved: see the fields below.</p>` : ''}
<form method="post" action="${action}" class="stacked" id="label-form">${csrfField(context)}
${field('title', 'Title', (attrs) => html`<input type="text" id="label-title" name="title" value="${values.title}" required maxlength="255"${attrs}>`, errors)}
${field('color', 'Colour', (attrs) => html`<input type="text" id="label-color" name="color" value="${values.color}" required maxlength="30"${attrs}>`, errors)}
<p class="muted"><label for="label-color-picker" class="inline-label">Or pick one:</label> <input type="color" id="label-color-picker" value="${picker}" data-sync="label-color"> A hex code such as <code>#dd2b0e</code>, or a CSS colour name.</p>
${field('description', 'Description', (attrs) => html`<textarea id="label-description" name="description"${attrs}>${values.description}</textarea>`, errors)}
${target.kind === 'project' ? field('priority', 'Priority', (attrs) => html`<input type="number" id="label-priority" name="priority" value="${values.priority}" min="0" max="2147483647"${attrs}>`, errors) : ''}
${target.kind === 'project' ? html`<p class="muted">Prioritized labels come first in lists, lowest number first. Leave empty for none.</p>` : ''}
<p class="actions"><button type="submit">${label ? 'Save changes' : 'Create label'}</button> <a href="${root}">Cancel</a></p>
</form>`;
  return page({ title: `${label ? 'Edit label' : 'New label'} · ${target.name}`, heading: html`<h1>${label ? html`Edit label ${label.title}` : 'New label'}</h1>`, body, status, sidebar: target.sidebar });
}

function requireManage(target: LabelPageParent): void {
  if (!target.manage) throw new ForbiddenError();
}

export function renderNewLabel(context: PageContext, target: LabelPageParent) {
  requireManage(target);
  return renderForm(context, target, undefined, valuesOf(undefined));
}

export async function renderEditLabel(context: PageContext, target: LabelPageParent) {
  requireManage(target);
  const label = await ownLabel(context.deps, target, context.match.id);
  return renderForm(context, target, label, valuesOf(label));
}

/** Field errors in the page's words, from the validations' (title, color, description) and the conflicts'. */
function errorsOf(error: unknown): Record<string, string> | null {
  if (error instanceof ConflictError) return { title: 'Title has already been taken.' };
  if (!(error instanceof ValidationError)) return null;
  const names: Record<string, string> = { title: 'Title', color: 'Colour', description: 'Description' };
  return Object.fromEntries(Object.entries(error.fields).map(([name, messages]) => [name, `${names[name] ?? name} ${messages.join(', ').replace("can't", 'can’t')}.`]));
}

export async function handleLabelForm(context: PageContext, target: LabelPageParent) {
  requireManage(target);
  const { form, deps } = context;
  const label = context.match.id ? await ownLabel(deps, target, context.match.id) : undefined;
  const values: Values = { title: str(form.title), color: str(form.color).trim(), description: str(form.description), priority: str(form.priority).trim() };
  if (values.priority !== '' && !/^\d{1,9}$/.test(values.priority)) return renderForm(context, target, label, values, { priority: 'Priority must be a whole number of 0 or more.' }, 400);
  const priority = target.kind === 'project' ? (values.priority === '' ? null : Number(values.priority)) : undefined;
  try {
    if (label) await updateLabel(deps, label, { newName: values.title, color: values.color, description: values.description, priority });
    else await createLabel(deps, target.parent, { title: values.title, color: values.color, description: values.description, priority });
  } catch (error) {
    const errors = errorsOf(error);
    if (errors) return renderForm(context, target, label, values, errors, 400);
    throw error;
  }
  return redirect(`${target.base}/-/labels`, label ? 'Label saved.' : 'Label created.');
}

export async function handleDeleteLabel(context: PageContext, target: LabelPageParent) {
  requireManage(target);
  const label = await ownLabel(context.deps, target, context.match.id);
  await deleteLabel(context.deps, label);
  return redirect(`${target.base}/-/labels`, 'Label deleted.');
}
