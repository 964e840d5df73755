// A project's CI/CD settings (GitLab's Settings › CI/CD): its variables (added and removed through the
// variables API's store and rules; a masked variable's value is never shown), its runners with the
// commands that register one (a new registration token shown once) and the switches of instance and
// group runners (the project's shared_runners_enabled and group_runners_enabled, as PUT /projects/:id
// sets them), its pipeline schedules, and its
// trigger tokens (added, the token shown once, and revoked). Each section asks the ability of the API
// routes that do the same: admin_cicd_variables, admin_project, read_pipeline_schedule, admin_build.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { canOnProject } from '../../platform/auth/policies/policy.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../platform/errors.js';
import { html, type Html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { page, redirect, type PageOutcome } from '../../platform/web/page.js';
import { projectSidebar } from '../../platform/web/project-nav.js';
import { createVariable, deleteVariable, ownedBy, type VariableOwner } from '../cicd-variables/variables-store.js';
import { runnerFlagColumns, updateProject } from '../../accounts/api.js';
import { resetRegistrationToken } from '../runners/register-runner.js';
import { runnerStatus } from '../entities.js';
import { createTrigger, findTrigger, projectTriggers } from '../triggers/trigger-store.js';
import { moment } from './status.js';
import { schedulesTable } from './schedules-page.js';
import { errorLines, errorList, fieldOf, formValues, readVariableForm, variableFields } from './variable-form.js';
import { projectBase, userLink, usersOf } from './shared.js';

export const CI_SETTINGS_PATTERN = /^(?<path>.+?)\/-\/settings\/ci_cd$/;

interface Shown {
  /** A token just made, shown once: the registration token or a trigger's. */
  registrationToken?: string;
  triggerToken?: string;
  variableErrors?: string[];
  variableForm?: Record<string, string>;
}


function variablesSection(context: PageContext, access: ProjectAccess, rows: Awaited<ReturnType<typeof readVariables>>, shown: Shown): Html {
  const self = `${projectBase(access)}/-/settings/ci_cd`;
  const form = shown.variableForm ?? {};
  return html`<section aria-labelledby="variables-heading" id="variables"><h2 id="variables-heading">Variables</h2>
<p class="muted">Variables are given to the jobs of this project's pipelines. A masked variable's value is hidden here and in job logs.</p>
${
  rows.length
    ? html`<div class="table-scroll"><table id="ci-variables"><thead><tr><th>Key</th><th>Value</th><th>Type</th><th>Environments</th><th>Attributes</th><th><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${rows.map(
        (row) => html`<tr data-variable="${row.key}"><td class="wrap-anywhere"><code>${row.key}</code>${row.description ? html`<br><span class="muted">${row.description}</span>` : ''}</td><td class="wrap-anywhere">${
          Number(row.masked) === 1 ? html`<span class="muted masked-value">Masked</span>` : html`<code>${context.deps.box.open(row.value_sealed)}</code>`
        }</td><td>${row.variable_type === 'file' ? 'File' : 'Variable'}</td><td><code>${row.environment_scope}</code></td><td>${[Number(row.protected) === 1 ? 'Protected' : null, Number(row.masked) === 1 ? 'Masked' : null, Number(row.raw) === 1 ? 'Raw' : null].filter(Boolean).join(', ')}</td><td><a class="button secondary" href="${self}/variables/${Number(row.id)}/edit">Edit <span class="visually-hidden">${row.key}</span></a> <form method="post" action="${self}" class="inline">${csrfField(context)}<input type="hidden" name="action" value="remove_variable"><input type="hidden" name="variable_id" value="${Number(row.id)}"><button type="submit" class="danger">Remove <span class="visually-hidden">${row.key}</span></button></form></td></tr>`,
      )}</tbody></table></div>`
    : html`<p class="empty">There are no variables yet.</p>`
}
<h3>Add variable</h3>
${errorList('variable-errors', shown.variableErrors)}
<form method="post" action="${self}" class="stacked" id="add-variable">${csrfField(context)}<input type="hidden" name="action" value="add_variable">
<label for="variable-key">Key</label><input type="text" id="variable-key" name="key" required maxlength="255" value="${form.key ?? ''}">
${variableFields(form, { fresh: !shown.variableForm })}
<p class="actions"><button type="submit">Add variable</button></p>
</form></section>`;
}

async function readVariables(context: PageContext, owner: VariableOwner) {
  return ownedBy(context.deps.db, owner).orderBy('key').orderBy('id').limit(500).execute();
}

async function runnersSection(context: PageContext, access: ProjectAccess, shown: Shown): Promise<Html> {
  const { deps } = context;
  const runners = await deps.db
    .selectFrom('ci_runners')
    .selectAll()
    .where((eb) => eb.or([eb('runner_type', '=', 'instance_type'), eb('id', 'in', eb.selectFrom('ci_runner_projects').select('runner_id').where('project_id', '=', access.project.id))]))
    .orderBy('id')
    .limit(200)
    .execute();
  const self = `${projectBase(access)}/-/settings/ci_cd`;
  const url = deps.config.baseUrl;
  const token = shown.registrationToken ?? '<registration token>';
  return html`<section aria-labelledby="runners-heading" id="runners"><h2 id="runners-heading">Runners</h2>
${
  runners.length
    ? html`<div class="table-scroll"><table id="ci-runners"><thead><tr><th>Runner</th><th>Kind</th><th>Status</th><th>Tags</th><th>Last contact</th></tr></thead><tbody>${runners.map(
        (runner) => html`<tr data-runner="${Number(runner.id)}"><td class="wrap-anywhere">#${Number(runner.id)} ${runner.description}${Number(runner.active) === 1 ? '' : html` <span class="badge">paused</span>`}</td><td>${runner.runner_type === 'instance_type' ? 'Instance' : 'Project'}</td><td>${runnerStatus(runner, deps.clock.now()).replace('_', ' ')}</td><td>${(JSON.parse(runner.tag_list) as string[]).join(', ')}</td><td>${runner.contacted_at === null ? html`<span class="muted">never</span>` : moment(Number(runner.contacted_at))}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p class="empty">No runner takes this project's jobs yet.</p>`
}
${runnerKindSwitches(context, access)}
<h3>Register a runner</h3>
${shown.registrationToken ? html`<div class="flash" role="status" id="registration-token-shown"><p>The new registration token (shown only now; the previous one no longer works):</p><p><label for="registration-token" class="visually-hidden">Registration token</label><input type="text" id="registration-token" readonly value="${shown.registrationToken}"></p></div>` : ''}
<p>Kiln's runner, or GitLab Runner, registered with the project's registration token:</p>
<pre class="commands" id="runner-commands"><code>npx kiln runner register --url ${url} --registration-token ${token} --description my-runner
gitlab-runner register --url ${url} --registration-token ${token} --executor shell</code></pre>
<form method="post" action="${self}" class="inline">${csrfField(context)}<input type="hidden" name="action" value="reset_registration_token"><button type="submit" class="secondary">${shown.registrationToken ? 'Reset registration token again' : 'Reset registration token'}</button></form>
</section>`;
}

/** The project's runner flags, GitLab's "Enable instance runners for this project" and its group counterpart: each a button that turns it over. */
function runnerKindSwitches(context: PageContext, access: ProjectAccess): Html {
  const self = `${projectBase(access)}/-/settings/ci_cd`;
  const flags = runnerFlagColumns(access.project.settings);
  const kinds = [
    { kind: 'instance', on: flags.shared_runners_enabled === 1, label: 'instance runners', whose: "The instance's runners" },
    { kind: 'group', on: flags.group_runners_enabled === 1, label: 'group runners', whose: "The runners of the project's groups" },
  ];
  return html`<ul class="plain" id="runner-kinds">${kinds.map(
    ({ kind, on, label, whose }) =>
      html`<li data-runner-kind="${kind}" data-enabled="${on ? 'true' : 'false'}">${on ? `${whose} may take this project's jobs.` : `${whose} take none of this project's jobs.`} <form method="post" action="${self}" class="inline">${csrfField(context)}<input type="hidden" name="action" value="runner_kind"><input type="hidden" name="kind" value="${kind}"><input type="hidden" name="enabled" value="${on ? 'false' : 'true'}"><button type="submit" class="secondary">${on ? 'Disable' : 'Enable'} ${label} for this project</button></form></li>`,
  )}</ul>`;
}

async function schedulesSection(context: PageContext, access: ProjectAccess): Promise<Html> {
  return html`<section aria-labelledby="schedules-heading" id="schedules"><h2 id="schedules-heading">Pipeline schedules</h2>
<p><a href="${projectBase(access)}/-/pipeline_schedules">All pipeline schedules</a>${canOnProject(access, 'create_pipeline_schedule') ? html` · <a href="${projectBase(access)}/-/pipeline_schedules/new">New schedule</a>` : ''}</p>
${await schedulesTable(context, access)}</section>`;
}

async function triggersSection(context: PageContext, access: ProjectAccess, shown: Shown): Promise<Html> {
  const rows = await projectTriggers(context.deps, Number(access.project.id)).orderBy('id').limit(200).execute();
  const owners = await usersOf(context.deps, rows.map((row) => row.owner_id));
  const self = `${projectBase(access)}/-/settings/ci_cd`;
  return html`<section aria-labelledby="triggers-heading" id="triggers"><h2 id="triggers-heading">Pipeline trigger tokens</h2>
${shown.triggerToken ? html`<div class="flash" role="status" id="trigger-token-shown"><p>The new trigger token (shown only now):</p><p><label for="trigger-token" class="visually-hidden">Trigger token</label><input type="text" id="trigger-token" readonly value="${shown.triggerToken}"></p></div>` : ''}
${
  rows.length
    ? html`<div class="table-scroll"><table id="ci-triggers"><thead><tr><th>Description</th><th>Token</th><th>Owner</th><th>Last used</th><th><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${rows.map(
        (row) => html`<tr data-trigger="${Number(row.id)}"><td class="wrap-anywhere">${row.description}</td><td><code>glptt-${row.token_start}…</code></td><td>${userLink(row.owner_id === null ? undefined : owners.get(Number(row.owner_id)))}</td><td>${row.last_used === null ? html`<span class="muted">never</span>` : moment(Number(row.last_used))}</td><td><form method="post" action="${self}" class="inline">${csrfField(context)}<input type="hidden" name="action" value="revoke_trigger"><input type="hidden" name="trigger_id" value="${Number(row.id)}"><button type="submit" class="danger">Revoke <span class="visually-hidden">${row.description}</span></button></form></td></tr>`,
      )}</tbody></table></div>`
    : html`<p class="empty">There are no trigger tokens.</p>`
}
<form method="post" action="${self}" class="stacked" id="add-trigger">${csrfField(context)}<input type="hidden" name="action" value="add_trigger">
<label for="trigger-description">Description</label><input type="text" id="trigger-description" name="description" maxlength="255" required>
<p class="actions"><button type="submit">Create pipeline trigger token</button></p>
</form>
<p class="muted">Run a pipeline with one: <code class="wrap-anywhere">curl -X POST --form token=TOKEN --form ref=${access.project.default_branch} ${context.deps.config.baseUrl}/api/v4/projects/${Number(access.project.id)}/trigger/pipeline</code></p>
</section>`;
}

async function renderSettings(context: PageContext, access: ProjectAccess, shown: Shown, status = 200): Promise<PageOutcome> {
  const owner: VariableOwner = { kind: 'project', id: Number(access.project.id) };
  const sections = [
    variablesSection(context, access, await readVariables(context, owner), shown),
    canOnProject(access, 'admin_project') ? await runnersSection(context, access, shown) : null,
    canOnProject(access, 'read_pipeline_schedule') ? await schedulesSection(context, access) : null,
    canOnProject(access, 'admin_build') ? await triggersSection(context, access, shown) : null,
  ];
  return page({ status, title: `CI/CD settings · ${access.project.name}`, heading: html`<h1>CI/CD settings</h1>`, body: html`${sections}`, sidebar: projectSidebar(access, 'ci_cd_settings') });
}

export function renderCiSettings(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  return renderSettings(context, access, {});
}

/** The section forms: each action asks the ability of its API route and uses the API's store. */
export async function handleCiSettings(context: PageContext, access: ProjectAccess): Promise<PageOutcome> {
  const { deps } = context;
  const self = `${projectBase(access)}/-/settings/ci_cd`;
  const owner: VariableOwner = { kind: 'project', id: Number(access.project.id) };
  const need = (ability: Parameters<typeof canOnProject>[1]) => {
    if (!canOnProject(access, ability)) throw new ForbiddenError();
  };
  switch (context.form.action) {
    case 'add_variable': {
      const input = readVariableForm(context);
      try {
        await createVariable(deps, owner, input);
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        return renderSettings(context, access, { variableErrors: errorLines(error), variableForm: formValues(input) }, 422);
      }
      return redirect(`${self}#variables`, `Variable ${input.key} was added.`);
    }
    case 'remove_variable': {
      const row = await ownedBy(deps.db, owner).where('id', '=', Number.parseInt(fieldOf(context, 'variable_id'), 10) || 0).executeTakeFirst();
      if (!row) throw new NotFoundError('Variable');
      await deleteVariable(deps.db, row);
      return redirect(`${self}#variables`, `Variable ${row.key} was removed.`);
    }
    case 'reset_registration_token':
      need('admin_project');
      return renderSettings(context, access, { registrationToken: await resetRegistrationToken(deps, 'project', Number(access.project.id)) });
    case 'runner_kind': {
      need('admin_project');
      const [name, label] = fieldOf(context, 'kind') === 'group' ? ['group_runners_enabled', 'Group runners'] : ['shared_runners_enabled', 'Instance runners'];
      const enabled = fieldOf(context, 'enabled') === 'true';
      await updateProject(deps, access, { stored: { [name]: enabled } });
      return redirect(`${self}#runners`, `${label} are ${enabled ? 'enabled' : 'disabled'} for this project.`);
    }
    case 'add_trigger': {
      need('admin_build');
      const description = fieldOf(context, 'description').trim().slice(0, 255);
      const made = await createTrigger(deps, { projectId: Number(access.project.id), ownerId: context.user.id, description });
      return renderSettings(context, access, { triggerToken: made.token });
    }
    case 'revoke_trigger': {
      need('admin_build');
      const row = await findTrigger(deps, Number(access.project.id), Number.parseInt(fieldOf(context, 'trigger_id'), 10) || 0);
      await deps.db.deleteFrom('ci_triggers').where('id', '=', row.id).execute();
      return redirect(`${self}#triggers`, 'The trigger token was revoked.');
    }
    default:
      return redirect(self);
  }
}
