// The sidebar inside a project and inside a group: the same entries everywhere, each shown only to
// those who hold the ability behind it (a link to a page that would answer 403 is noise).
import type { GroupAccess, ProjectAccess } from '../auth/subjects.js';
import { canOnGroup, canOnProject } from '../auth/policies/policy.js';
import { html, type Html } from './html.js';

export type ProjectSection = 'overview' | 'repository' | 'issues' | 'boards' | 'labels' | 'merge_requests' | 'milestones' | 'incidents' | 'alerts' | 'environments' | 'pipelines' | 'jobs' | 'releases' | 'snippets' | 'wiki' | 'activity' | 'members' | 'settings' | 'operations' | 'error_tracking' | 'webhooks' | 'repository_settings' | 'deploy_keys' | 'deploy_tokens' | 'ci_cd_settings' | 'badges';

/** A sidebar link; `keys` its keyboard shortcut (GitLab's `g` sequences, shortcuts/script.ts). */
function entry(href: string, label: string, current: boolean, count?: number, keys?: string): Html {
  // The shortcut first: `href="…" aria-current="page">Label` stays as pages and their tests read it.
  return html`<li><a${keys ? html` data-shortcut="${keys}"` : ''} href="${href}"${current ? html` aria-current="page"` : ''}>${label}${count === undefined ? '' : html` <span class="badge" data-count="${count}">${count}</span>`}</a></li>`;
}

/** Counts a page read anyway, shown beside their entries (the merge request pages pass the open count). */
export interface SidebarCounts {
  mergeRequests?: number;
}

export function projectSidebar(access: ProjectAccess, current: ProjectSection, counts: SidebarCounts = {}): Html {
  const base = `/${access.project.full_path}`;
  const can = (ability: Parameters<typeof canOnProject>[1]) => canOnProject(access, ability);
  const settings = can('admin_project');
  // `t` finds a file of the default branch from any page of the project (a repository page offers its
  // own ref's); `i` opens a new issue there, for those who may create one (GitLab's .shortcuts-new-issue).
  return html`<nav class="sidebar" aria-label="Project" data-shortcut-group="This project"${can('download_code') ? html` data-find-file="${base}/-/find_file/${access.project.default_branch}"` : ''}${can('create_issue') ? html` data-new-issue="${base}/-/issues/new"` : ''}>
<a class="context" href="${base}">${access.project.name}</a>
<ul>
${entry(base, 'Overview', current === 'overview', undefined, 'g,o')}
${can('download_code') ? html`${entry(`${base}/-/tree/${access.project.default_branch}`, 'Repository', current === 'repository', undefined, 'g,f')}<li><ul>
${entry(`${base}/-/commits/${access.project.default_branch}`, 'Commits', false, undefined, 'g,c')}
${entry(`${base}/-/branches`, 'Branches', false)}
${entry(`${base}/-/tags`, 'Tags', false)}
${entry(`${base}/-/graphs/${access.project.default_branch}`, 'Contributors', false)}
${entry(`${base}/-/compare`, 'Compare', false)}
</ul></li>` : ''}
${can('read_issue') ? entry(`${base}/-/issues`, 'Issues', current === 'issues', undefined, 'g,i') : ''}
${can('read_issue_board') ? entry(`${base}/-/boards`, 'Boards', current === 'boards', undefined, 'g,b') : ''}
${can('read_merge_request') ? entry(`${base}/-/merge_requests`, 'Merge requests', current === 'merge_requests', counts.mergeRequests, 'g,m') : ''}
${can('read_issue') ? entry(`${base}/-/incidents`, 'Incidents', current === 'incidents') : ''}
${can('read_label') ? entry(`${base}/-/labels`, 'Labels', current === 'labels') : ''}
${can('read_milestone') ? entry(`${base}/-/milestones`, 'Milestones', current === 'milestones') : ''}
${can('read_alert_management_alert') ? entry(`${base}/-/alert_management`, 'Alerts', current === 'alerts') : ''}
${can('read_pipeline') ? html`<li><span class="muted sidebar-heading">Build</span><ul>
${entry(`${base}/-/pipelines`, 'Pipelines', current === 'pipelines', undefined, 'g,p')}
${entry(`${base}/-/jobs`, 'Jobs', current === 'jobs', undefined, 'g,j')}
</ul></li>` : ''}
${can('read_environment') ? entry(`${base}/-/environments`, 'Environments', current === 'environments', undefined, 'g,e') : ''}
${can('read_release') ? entry(`${base}/-/releases`, 'Releases', current === 'releases', undefined, 'g,r') : ''}
${can('read_wiki') ? entry(`${base}/-/wikis`, 'Wiki', current === 'wiki', undefined, 'g,w') : ''}
${can('read_snippet') ? entry(`${base}/-/snippets`, 'Snippets', current === 'snippets', undefined, 'g,s') : ''}
${can('read_events') ? entry(`${base}/activity`, 'Activity', current === 'activity', undefined, 'g,v') : ''}
${can('read_project_member') ? entry(`${base}/-/project_members`, 'Members', current === 'members') : ''}
${
  settings || can('send_test_alert') || can('read_error_tracking_settings') || can('admin_webhook') || can('admin_cicd_variables')
    ? html`<li><span class="muted sidebar-heading">Settings</span><ul>
${settings ? entry(`${base}/edit`, 'General', current === 'settings') : ''}
${settings ? entry(`${base}/-/settings/repository`, 'Repository', current === 'repository_settings') : ''}
${can('admin_cicd_variables') ? entry(`${base}/-/settings/ci_cd`, 'CI/CD', current === 'ci_cd_settings') : ''}
${settings ? entry(`${base}/-/deploy_keys`, 'Deploy keys', current === 'deploy_keys') : ''}
${settings ? entry(`${base}/-/deploy_tokens`, 'Deploy tokens', current === 'deploy_tokens') : ''}
${settings ? entry(`${base}/-/settings/badges`, 'Badges', current === 'badges') : ''}
${can('send_test_alert') ? entry(`${base}/-/settings/operations`, 'Operations', current === 'operations') : ''}
${can('read_error_tracking_settings') ? entry(`${base}/-/settings/error_tracking`, 'Error tracking', current === 'error_tracking') : ''}
${can('admin_webhook') ? entry(`${base}/-/hooks`, 'Webhooks', current === 'webhooks') : ''}
</ul></li>`
    : ''
}
</ul>
</nav>`;
}

export type GroupSection = 'overview' | 'activity' | 'issues' | 'boards' | 'labels' | 'milestones' | 'members' | 'wiki' | 'deploy_tokens' | 'settings' | 'badges';

export function groupSidebar(access: GroupAccess, current: GroupSection): Html {
  const base = `/groups/${access.group.full_path}`;
  return html`<nav class="sidebar" aria-label="Group">
<a class="context" href="${base}">${access.group.name}</a>
<ul>
${entry(base, 'Subgroups and projects', current === 'overview')}
${entry(`${base}/-/activity`, 'Activity', current === 'activity')}
${entry(`${base}/-/issues`, 'Issues', current === 'issues')}
${canOnGroup(access, 'read_issue_board') ? entry(`${base}/-/boards`, 'Boards', current === 'boards') : ''}
${canOnGroup(access, 'read_label') ? entry(`${base}/-/labels`, 'Labels', current === 'labels') : ''}
${canOnGroup(access, 'read_milestone') ? entry(`${base}/-/milestones`, 'Milestones', current === 'milestones') : ''}
${canOnGroup(access, 'read_wiki') ? entry(`${base}/-/wikis`, 'Wiki', current === 'wiki') : ''}
${canOnGroup(access, 'read_group_member') ? entry(`${base}/-/group_members`, 'Members', current === 'members') : ''}
${canOnGroup(access, 'admin_group') ? entry(`${base}/-/edit`, 'General settings', current === 'settings') : ''}
${canOnGroup(access, 'admin_group') ? entry(`${base}/-/deploy_tokens`, 'Deploy tokens', current === 'deploy_tokens') : ''}
${canOnGroup(access, 'admin_group') ? entry(`${base}/-/settings/badges`, 'Badges', current === 'badges') : ''}
</ul>
</nav>`;
}
