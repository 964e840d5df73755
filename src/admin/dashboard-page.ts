// /admin: what the instance holds, and links to the administrator's pages.
import { html } from '../platform/web/html.js';
import { page, type PageOutcome } from '../platform/web/page.js';
import type { InstanceCounts } from './statistics-queries.js';

const ADMIN_PAGES = [
  ['/admin/users', 'Users', 'Search, create, block, deactivate; approve or reject sign-ups.'],
  ['/admin/projects', 'Projects', 'Every project on the instance.'],
  ['/admin/groups', 'Groups', 'Every group on the instance.'],
  ['/admin/emails', 'E-mails', 'The outgoing mail and its delivery state.'],
  ['/admin/repository_storages', 'Repository storage', 'The repository shards and moves between them.'],
  ['/admin/application_settings/general', 'Settings', 'Sign-up, visibility defaults, outbound requests, rate limits and e-mail.'],
  ['/admin/hooks', 'System hooks', 'Webhooks that receive the events of the whole instance; add, edit, test or delete them.'],
  ['/admin/broadcast_messages', 'Messages', 'Broadcast messages shown as a banner or notification to everyone.'],
  ['/admin/background_jobs', 'Background jobs', 'Queued, running and dead jobs; retry or discard them.'],
] as const;

export function dashboardPage(counts: InstanceCounts): PageOutcome {
  const tiles = [
    ['Users', counts.users, `${counts.activeUsers} active, ${counts.blockedUsers} blocked`],
    ['Projects', counts.projects, ''],
    ['Groups', counts.groups, ''],
    ['Issues', counts.issues, ''],
    ['Merge requests', counts.mergeRequests, ''],
    ['SSH keys', counts.sshKeys, ''],
  ] as const;
  return page({
    title: 'Admin area',
    body: html`
      <ul class="admin-counts">${tiles.map(([label, value, detail]) => html`<li><span class="count">${value.toLocaleString('en-US')}</span> <span class="label">${label}</span>${detail ? html` <span class="muted">${detail}</span>` : ''}</li>`)}</ul>
      <h2>Administration</h2>
      <ul class="plain">${ADMIN_PAGES.map(([href, label, help]) => html`<li><a href="${href}">${label}</a> <span class="muted">${help}</span></li>`)}</ul>`,
  });
}
