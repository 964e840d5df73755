// A pipeline schedule's variables on its form: each stored one with its value and type and a Remove
// box, and one empty row to add another. Posted, they become the schedule-variables store's
// updates, deletions and creation (its validations and messages), inside the caller's transaction.
import type { Deps } from '../../platform/deps.js';
import { html, type Html } from '../../platform/web/html.js';
import type { PageContext } from '../../platform/web/page-route.js';
import { createScheduleVariable, deleteScheduleVariable, updateScheduleVariable, type ScheduleVariableRow } from '../schedules/schedule-variables.js';
import { checked, fieldOf } from './variable-form.js';

const typeSelect = (id: string, name: string, label: string, value: string) =>
  html`<label for="${id}" class="visually-hidden">${label}</label><select id="${id}" name="${name}"><option value="env_var">Variable</option><option value="file"${value === 'file' ? html` selected` : ''}>File</option></select>`;

export function variableRows(context: PageContext, rows: ScheduleVariableRow[]): Html {
  return html`<fieldset id="schedule-variables"><legend>Variables</legend>
<div class="table-scroll"><table><thead><tr><th>Key</th><th>Value</th><th>Type</th><th>Remove</th></tr></thead><tbody>${rows.map((row) => {
    const id = Number(row.id);
    return html`<tr data-variable="${row.key}"><td class="wrap-anywhere"><code>${row.key}</code></td><td><label for="variable-value-${id}" class="visually-hidden">Value of ${row.key}</label><input type="text" id="variable-value-${id}" name="variable_value_${id}" value="${context.deps.box.open(row.value_sealed)}"></td><td>${typeSelect(`variable-type-${id}`, `variable_type_${id}`, `Type of ${row.key}`, row.variable_type)}</td><td><input type="checkbox" id="variable-remove-${id}" name="variable_remove_${id}" value="true"> <label for="variable-remove-${id}"><span class="visually-hidden">Remove ${row.key}</span></label></td></tr>`;
  })}<tr><td><label for="new-variable-key" class="visually-hidden">New variable key</label><input type="text" id="new-variable-key" name="new_variable_key" maxlength="255" placeholder="New key"></td><td><label for="new-variable-value" class="visually-hidden">New variable value</label><input type="text" id="new-variable-value" name="new_variable_value"></td><td>${typeSelect('new-variable-type', 'new_variable_type', 'New variable type', 'env_var')}</td><td></td></tr></tbody></table></div>
</fieldset>`;
}

const typeOf = (value: string) => (value === 'file' ? 'file' : 'env_var');

/** GitLab's refusal when the rows change variables and the user may not set pipeline variables. */
export class ScheduleVariablesRefused extends Error {
  constructor() {
    super('The current user is not authorized to set pipeline schedule variables');
  }
}

/**
 * What the posted rows change; a field missing from the form leaves its variable as it is. Without
 * `maySetVariables` (restrict_user_defined_variables), any change is refused (nothing unchanged is).
 */
export async function applyVariableRows(deps: Deps, context: PageContext, scheduleId: number, rows: ScheduleVariableRow[], maySetVariables: boolean): Promise<void> {
  const allowed = () => {
    if (!maySetVariables) throw new ScheduleVariablesRefused();
  };
  for (const row of rows) {
    const id = Number(row.id);
    if (checked(context, `variable_remove_${id}`)) {
      allowed();
      await deleteScheduleVariable(deps.db, row);
      continue;
    }
    const value = typeof context.form[`variable_value_${id}`] === 'string' ? fieldOf(context, `variable_value_${id}`) : undefined;
    const type = typeof context.form[`variable_type_${id}`] === 'string' ? typeOf(fieldOf(context, `variable_type_${id}`)) : undefined;
    if ((value !== undefined && value !== deps.box.open(row.value_sealed)) || (type !== undefined && type !== row.variable_type)) {
      allowed();
      await updateScheduleVariable(deps, row, { value, variable_type: type });
    }
  }
  const key = fieldOf(context, 'new_variable_key').trim();
  if (key === '') return;
  allowed();
  await createScheduleVariable(deps, scheduleId, { key, value: fieldOf(context, 'new_variable_value'), variable_type: typeOf(fieldOf(context, 'new_variable_type')) });
}
