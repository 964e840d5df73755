// What the environment pages share: the external URL as a link only when it is http(s), and the
// stop and delete buttons for those who hold the abilities.
import { html, type Html } from '../../platform/web/html.js';
import { csrfField, type PageContext } from '../../platform/web/page-route.js';
import { canOnProject } from '../../platform/auth/policies/policy.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import type { EnvironmentRow } from '../entities.js';

export function externalLink(env: EnvironmentRow): Html {
  if (!env.external_url) return html``;
  return /^https?:\/\//i.test(env.external_url) ? html`<a href="${env.external_url}" rel="noopener noreferrer" class="external">Open ${env.external_url}</a>` : html`<span class="muted">${env.external_url}</span>`;
}

export function environmentActions(context: PageContext, access: ProjectAccess, env: EnvironmentRow): Html {
  const action = `/${access.project.full_path}/-/environments/${Number(env.id)}`;
  const stop = env.state === 'available' && canOnProject(access, 'stop_environment');
  const remove = env.state === 'stopped' && canOnProject(access, 'destroy_environment');
  return html`${stop ? html`<form method="post" action="${action}" class="inline" data-confirm="Stop ${env.name}?">${csrfField(context)}<input type="hidden" name="action" value="stop"><button type="submit" class="secondary">Stop</button></form>` : ''}${
    remove ? html`<form method="post" action="${action}" class="inline" data-confirm="Delete ${env.name}? Its deployments are deleted too.">${csrfField(context)}<input type="hidden" name="action" value="delete"><button type="submit" class="danger">Delete</button></form>` : ''
  }`;
}
