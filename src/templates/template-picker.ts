// The "Description template" choice of the new issue and new merge request pages. Without JavaScript
// the select belongs to a small GET form of its own (the `form` attribute: forms cannot nest) that
// reloads the page with `issuable_template=<name>`, GitLab's parameter, so a link such as
// `…/-/issues/new?issuable_template=Bug` works too; kiln.js (platform/web/scripts.ts, `[data-template-for]`)
// fills the description in place instead, asking before it replaces text the author typed. The pages
// reach this through issues' `issuableTemplates` hook (index.ts registers it): issues cannot import templates (a cycle through repositories).
import type { Deps } from '../platform/deps.js';
import type { ProjectAccess } from '../platform/auth/subjects.js';
import { html, type Html } from '../platform/web/html.js';
import type { IssuableTemplateRequest, IssuableTemplates } from '../issues/api.js';
import type { TemplateSummary } from './file-templates.js';
import { defaultTemplateName, findDescriptionTemplate, listDescriptionTemplates, type DescriptionTemplateType } from './description-templates.js';

interface TemplateChoice {
  templates: TemplateSummary[];
  /** The template the description was filled from, if any. */
  chosen: string | undefined;
  /** That template's content: the description to offer. */
  content: string | undefined;
}

/**
 * The templates offered, and the one to fill the description with: the one `issuable_template`
 * names (a name that is not a template is ignored, as GitLab's selected_template), else, when the
 * page has no description of its own yet (`fresh`) and the parameter is absent, the `Default` one.
 */
async function descriptionTemplateChoice(deps: Deps, access: ProjectAccess, type: DescriptionTemplateType, asked: string | undefined, fresh: boolean): Promise<TemplateChoice> {
  const templates = await listDescriptionTemplates(deps, access, type);
  const chosen = asked ? templates.find((template) => template.name === asked)?.name : asked === undefined && fresh ? defaultTemplateName(templates) : undefined;
  const content = chosen === undefined ? undefined : (await findDescriptionTemplate(deps, access, type, chosen))?.content;
  return { templates, chosen: content === undefined ? undefined : chosen, content };
}

const FORM_ID = 'issuable-template-form';

/** The select and its button (inside the issue's form), and the GET form they belong to (after it). */
function templatePicker(choice: TemplateChoice, place: IssuableTemplateRequest): { control: Html | ''; form: Html | '' } {
  if (!choice.templates.length) return { control: '', form: '' };
  const control = html`<p class="template-picker"><label for="issuable-template">Description template</label>
<select id="issuable-template" name="issuable_template" form="${FORM_ID}" data-template-for="${place.textarea}"><option value="">No template</option>${choice.templates.map((template) => html`<option value="${template.name}"${template.name === choice.chosen ? html` selected` : ''}>${template.name}</option>`)}</select>
<button type="submit" form="${FORM_ID}" class="secondary" data-template-apply>Apply template</button></p>`;
  const hidden = Object.entries(place.hidden ?? {}).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
  const form = html`<form method="get" action="${place.action}" id="${FORM_ID}">${hidden}</form>`;
  return { control, form };
}

/** issues' `issuableTemplates` hook: the description to fill and the picker, for a new issue or merge request. */
export async function issuableTemplates(deps: Deps, access: ProjectAccess, type: DescriptionTemplateType, request: IssuableTemplateRequest): Promise<IssuableTemplates> {
  const choice = await descriptionTemplateChoice(deps, access, type, request.asked, request.fresh);
  return { content: choice.content, ...templatePicker(choice, request) };
}
