// The broadcast messages a page shows: those active now whose target path matches the page and whose
// target roles (if any) include the visitor's on the page's project or group, less those the browser
// dismissed (a cookie per message, kept until the message ends). Banners go above the page,
// notifications below it; the message is the HTML rendered and sanitised when it was saved. With
// htmx, Dismiss removes the message in place; without it, the form reloads the page.
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../platform/deps.js';
import type { AuthUser, Principal } from '../platform/auth/principal.js';
import { readCookie } from '../platform/http/cookies.js';
import { html, raw, type Html } from '../platform/web/html.js';
import { accessLevelsOf, currentBroadcastMessages, type BroadcastMessageRow } from './messages.js';

export const DISMISS_URL = '/-/broadcast_messages';

export function dismissCookie(id: number): string {
  return `hide_broadcast_message_${id}`;
}

/**
 * GitLab's target path: `*` matches any characters, the rest literally, the whole path, case
 * insensitive; a pattern without a leading `/` (or `*`) is taken from the root.
 */
export function matchesTargetPath(pattern: string, path: string): boolean {
  if (pattern === '') return true;
  const rooted = pattern.startsWith('/') || pattern.startsWith('*') ? pattern : `/${pattern}`;
  const source = rooted.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${source}$`, 'i').test(path);
}

function shownTo(row: BroadcastMessageRow, path: string, level: number | null, request: FastifyRequest): boolean {
  if (!matchesTargetPath(row.target_path, path)) return false;
  const levels = accessLevelsOf(row);
  if (levels.length && (level === null || !levels.includes(level))) return false;
  const dismissible = Boolean(row.dismissable) || row.broadcast_type === 'notification';
  return !(dismissible && readCookie(request, dismissCookie(Number(row.id))));
}

function messageHtml(row: BroadcastMessageRow, path: string, csrfToken: string): Html {
  const id = Number(row.id);
  const dismissible = Boolean(row.dismissable) || row.broadcast_type === 'notification';
  const kind = row.broadcast_type === 'notification' ? 'notification' : 'banner';
  return html`<div class="broadcast-message broadcast-${kind} broadcast-theme-${row.theme}" data-broadcast-message="${id}">
  <div class="broadcast-text markdown">${raw(row.message_html)}</div>
  ${dismissible ? html`<form method="post" action="${DISMISS_URL}/${id}/dismiss" class="inline" hx-post="${DISMISS_URL}/${id}/dismiss" hx-target="closest .broadcast-message" hx-swap="outerHTML"><input type="hidden" name="authenticity_token" value="${csrfToken}"><input type="hidden" name="return_to" value="${path}"><button type="submit" class="broadcast-dismiss" aria-label="Dismiss this message">Dismiss</button></form>` : ''}
</div>`;
}

/**
 * The visitor's level on the project or group a page shows when the page did not declare one: a
 * project's or group's overview, whose kind is found only while it is answered (`/group/project`,
 * `/group`, `/groups/group`). Read only when a role-targeted message is active.
 */
async function overviewLevel(deps: Deps, user: AuthUser | null, path: string): Promise<number | null> {
  const finders = deps.auth.subjects;
  if (!finders || path.includes('/-/')) return null;
  let fullPath: string;
  try {
    fullPath = decodeURIComponent(path).replace(/^\/(groups\/)?/, '').replace(/\/$/, '');
  } catch {
    return null;
  }
  if (fullPath === '') return null;
  const principal: Principal | null = user ? { user, scopes: ['api'], via: 'session', tokenId: null } : null;
  const project = await finders.project(principal, fullPath, 'read_project').catch(() => null);
  if (project) return project.level;
  const group = await finders.group(principal, fullPath, 'read_group').catch(() => null);
  return group?.level ?? null;
}

export async function broadcastsFor(deps: Deps, view: { request: FastifyRequest; user: AuthUser | null; level: number | null; csrfToken: string }): Promise<{ banners: string; notifications: string } | null> {
  const rows = await currentBroadcastMessages(deps, deps.clock.now());
  if (!rows.length) return null;
  const path = view.request.url.split('?')[0] ?? '/';
  const targeted = rows.some((row) => accessLevelsOf(row).length > 0 && matchesTargetPath(row.target_path, path));
  const level = view.level ?? (targeted ? await overviewLevel(deps, view.user, path) : null);
  const shown = rows.filter((row) => shownTo(row, path, level, view.request));
  if (!shown.length) return null;
  const banners = shown.filter((row) => row.broadcast_type !== 'notification');
  const notifications = shown.filter((row) => row.broadcast_type === 'notification');
  return {
    banners: banners.length ? html`<div class="broadcast-banners" role="region" aria-label="Broadcast messages">${banners.map((row) => messageHtml(row, path, view.csrfToken))}</div>`.value : '',
    notifications: notifications.length ? html`<div class="broadcast-notifications" role="region" aria-label="Broadcast notifications">${notifications.map((row) => messageHtml(row, path, view.csrfToken))}</div>`.value : '',
  };
}
