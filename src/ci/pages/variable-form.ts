// The fields of a CI/CD variable on Settings › CI/CD, shared by the Add form and the Edit page, and
// what a posted form means. A masked variable's value is never written into a page: the Edit page
// leaves its value empty and an empty value keeps the stored one.
import { html, type Html } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { ValidationError } from '../../platform/errors.js';

export const fieldOf = (context: PageContext, name: string) => (typeof context.form[name] === 'string' ? (context.form[name] as string) : '');
export const checked = (context: PageContext, name: string) => context.form[name] === 'true' || context.form[name] === 'on';

/** What the form shows: strings of the posted (or stored) fields; flags present when set. */
export type VariableFormValues = Record<string, string>;

export interface VariableFormInput {
  key: string;
  value: string;
  variable_type: 'env_var' | 'file';
  environment_scope: string;
  description: string | undefined;
  protected: boolean;
  masked: boolean;
  raw: boolean;
}

export function readVariableForm(context: PageContext): VariableFormInput {
  return {
    key: fieldOf(context, 'key').trim(), value: fieldOf(context, 'value'), variable_type: fieldOf(context, 'variable_type') === 'file' ? 'file' : 'env_var',
    environment_scope: fieldOf(context, 'environment_scope').trim() || '*', description: fieldOf(context, 'description').trim() || undefined,
    protected: checked(context, 'protected'), masked: checked(context, 'masked'), raw: !checked(context, 'expand'),
  };
}

/** The form's values to show again after a refusal: never a masked value. */
export function formValues(input: VariableFormInput): VariableFormValues {
  return {
    key: input.key, value: input.masked ? '' : input.value, variable_type: input.variable_type, environment_scope: input.environment_scope, description: input.description ?? '',
    ...(input.protected ? { protected: 'true' } : {}), ...(input.masked ? { masked: 'true' } : {}), ...(input.raw ? {} : { expand: 'true' }),
  };
}

/** A refusal of the variables store, as lines for the form (`value is invalid`). */
export function errorLines(error: ValidationError): string[] {
  return Object.entries(error.fields).flatMap(([field, messages]) => messages.map((message) => `${field} ${message}`));
}

export function errorList(id: string, errors: string[] | undefined): Html {
  return errors?.length ? html`<div class="error" role="alert" id="${id}"><ul>${errors.map((error) => html`<li>${error}</li>`)}</ul></div>` : html``;
}

/**
 * The inputs after the key: value, type, scope, description and the flags. `keepMasked` says the
 * stored value is masked and not shown: an empty value then keeps it.
 */
export function variableFields(form: VariableFormValues, options: { fresh: boolean; keepMasked?: boolean }): Html {
  return html`<label for="variable-value">Value</label><textarea id="variable-value" name="value"${options.keepMasked ? html` aria-describedby="variable-value-kept"` : ''}>${form.value ?? ''}</textarea>
${options.keepMasked ? html`<p class="muted" id="variable-value-kept">The value is masked and not shown; leave it empty to keep it.</p>` : ''}
<label for="variable-type">Type</label><select id="variable-type" name="variable_type"><option value="env_var">Variable</option><option value="file"${form.variable_type === 'file' ? html` selected` : ''}>File</option></select>
<label for="variable-scope">Environment scope</label><input type="text" id="variable-scope" name="environment_scope" value="${form.environment_scope ?? '*'}">
<label for="variable-description">Description (optional)</label><input type="text" id="variable-description" name="description" maxlength="255" value="${form.description ?? ''}">
<fieldset><legend>Flags</legend>
<p><input type="checkbox" id="variable-protected" name="protected" value="true"${form.protected ? html` checked` : ''}> <label for="variable-protected">Protect variable</label> <span class="muted">(only pipelines of protected branches and tags get it)</span></p>
<p><input type="checkbox" id="variable-masked" name="masked" value="true"${form.masked ? html` checked` : ''}> <label for="variable-masked">Mask variable</label> <span class="muted">(hidden in job logs; at least 8 characters)</span></p>
<p><input type="checkbox" id="variable-expand" name="expand" value="true"${options.fresh || form.expand ? html` checked` : ''}> <label for="variable-expand">Expand variable reference</label> <span class="muted">(unchecked: <code>$</code> is taken literally)</span></p>
</fieldset>`;
}
