// Creating, changing, closing, reopening and deleting a milestone from the pages (admin_milestone),
// through the API's own code (createMilestone, updateMilestone, deleteMilestone: a title free in the
// project or group, a start date not after the due date). A refused form keeps what was typed.
import { html, type Html } from '../../../platform/web/html.js';
import { csrfField, type PageContext } from '../../../platform/web/page-route.js';
import { page, redirect } from '../../../platform/web/page.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../../platform/errors.js';
import { createMilestone, deleteMilestone, milestonesQuery, updateMilestone, type MilestoneRow } from '../../../milestones/api.js';
import type { MilestonePageParent } from './shared.js';

export const PROJECT_NEW_MILESTONE_PATTERN = /^(?<path>(?!groups\/).+?)\/-\/milestones\/new$/;
export const GROUP_NEW_MILESTONE_PATTERN = /^groups\/(?<path>.+?)\/-\/milestones\/new$/;
export const PROJECT_EDIT_MILESTONE_PATTERN = /^(?<path>(?!groups\/).+?)\/-\/milestones\/(?<iid>\d{1,9})\/(?<action>edit|state|delete)$/;
export const GROUP_EDIT_MILESTONE_PATTERN = /^groups\/(?<path>.+?)\/-\/milestones\/(?<iid>\d{1,9})\/(?<action>edit|state|delete)$/;

const DATE = /^\d{4}-\d{2}-\d{2}$/;

interface Values {
  title: string;
  description: string;
  start_date: string;
  due_date: string;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function requireManage(target: MilestonePageParent): void {
  if (!target.manage) throw new ForbiddenError();
}

async function milestoneOf(context: PageContext, target: MilestonePageParent): Promise<MilestoneRow> {
  const milestone = await (await milestonesQuery(context.deps, target.parent, { iids: [Number(context.match.iid)] })).executeTakeFirst();
  if (!milestone) throw new NotFoundError('Milestone');
  return milestone;
}

function field(name: keyof Values, label: string, control: (attrs: Html) => Html, errors: Record<string, string>): Html {
  const error = errors[name];
  const attrs = error ? html` aria-invalid="true" aria-describedby="milestone-${name}-error"` : html``;
  return html`<label for="milestone-${name}">${label}</label>${control(attrs)}${error ? html`<p class="field-error" id="milestone-${name}-error">${error}</p>` : ''}`;
}

function renderForm(context: PageContext, target: MilestonePageParent, milestone: MilestoneRow | undefined, values: Values, errors: Record<string, string> = {}, status = 200) {
  const root = `${target.base}/-/milestones`;
  const action = milestone ? `${root}/${milestone.iid}/edit` : `${root}/new`;
  const body = html`
${Object.keys(errors).length ? html`<p class="error" role="alert">The milestone was not saved: see the fields below.</p>` : ''}
<form method="post" action="${action}" class="stacked" id="milestone-form">${csrfField(context)}
${field('title', 'Title', (attrs) => html`<input type="text" id="milestone-title" name="title" value="${values.title}" required maxlength="255"${attrs}>`, errors)}
${field('start_date', 'Start date', (attrs) => html`<input type="date" id="milestone-start_date" name="start_date" value="${values.start_date}"${attrs}>`, errors)}
${field('due_date', 'Due date', (attrs) => html`<input type="date" id="milestone-due_date" name="due_date" value="${values.due_date}"${attrs}>`, errors)}
${field('description', 'Description', (attrs) => html`<textarea id="milestone-description" name="description"${attrs}>${values.description}</textarea>`, errors)}
<p class="muted">Markdown is supported.</p>
<p class="actions"><button type="submit">${milestone ? 'Save changes' : 'Create milestone'}</button> <a href="${milestone ? `${root}/${milestone.iid}` : root}">Cancel</a></p>
</form>`;
  return page({ title: `${milestone ? 'Edit milestone' : 'New milestone'} · ${target.name}`, heading: html`<h1>${milestone ? html`Edit milestone ${milestone.title}` : 'New milestone'}</h1>`, body, status, sidebar: target.sidebar });
}

export function renderNewMilestone(context: PageContext, target: MilestonePageParent) {
  requireManage(target);
  return renderForm(context, target, undefined, { title: '', description: '', start_date: '', due_date: '' });
}

export async function renderEditMilestone(context: PageContext, target: MilestonePageParent) {
  requireManage(target);
  if (context.match.action !== 'edit') throw new NotFoundError();
  const milestone = await milestoneOf(context, target);
  return renderForm(context, target, milestone, { title: milestone.title, description: milestone.description ?? '', start_date: milestone.start_date ?? '', due_date: milestone.due_date ?? '' });
}

function errorsOf(error: ValidationError): Record<string, string> {
  const names: Record<string, string> = { title: 'Title', due_date: 'Due date', start_date: 'Start date', description: 'Description' };
  return Object.fromEntries(Object.entries(error.fields).map(([name, messages]) => [name in names ? name : 'title', `${names[name] ?? ''} ${messages.join(', ').replace("can't", 'can’t')}.`.trim()]));
}

export async function handleMilestoneForm(context: PageContext, target: MilestonePageParent) {
  requireManage(target);
  const { form, deps, user } = context;
  const milestone = context.match.iid ? await milestoneOf(context, target) : undefined;
  const root = `${target.base}/-/milestones`;
  if (milestone && context.match.action === 'delete') {
    await deleteMilestone(deps, user.id, milestone);
    return redirect(root, 'Milestone deleted.');
  }
  if (milestone && context.match.action === 'state') {
    await updateMilestone(deps, user.id, target.parent, milestone, { stateEvent: form.state_event === 'activate' ? 'activate' : 'close' });
    return redirect(`${root}/${milestone.iid}`, form.state_event === 'activate' ? 'Milestone reopened.' : 'Milestone closed.');
  }
  const values: Values = { title: str(form.title), description: str(form.description), start_date: str(form.start_date).trim(), due_date: str(form.due_date).trim() };
  const dateErrors: Record<string, string> = {};
  if (values.start_date && !DATE.test(values.start_date)) dateErrors.start_date = 'Start date must be a date (YYYY-MM-DD).';
  if (values.due_date && !DATE.test(values.due_date)) dateErrors.due_date = 'Due date must be a date (YYYY-MM-DD).';
  if (Object.keys(dateErrors).length) return renderForm(context, target, milestone, values, dateErrors, 400);
  const input = { title: values.title, description: values.description.trim() === '' ? null : values.description, startDate: values.start_date || null, dueDate: values.due_date || null };
  try {
    const saved = milestone ? await updateMilestone(deps, user.id, target.parent, milestone, input) : await createMilestone(deps, user.id, target.parent, input);
    return redirect(`${root}/${saved.iid}`, milestone ? 'Milestone saved.' : 'Milestone created.');
  } catch (error) {
    if (error instanceof ValidationError) return renderForm(context, target, milestone, values, errorsOf(error), 400);
    throw error;
  }
}
