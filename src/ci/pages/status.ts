// How the CI pages show a status (GitLab's CI status badge and icon, with its words: `success` reads
// "passed"), a duration (hh:mm:ss) and a moment.
import { isoTime } from '../../platform/clock.js';
import { html, type Html } from '../../platform/web/html.js';
import type { CiStatus } from '../../platform/db/tables/ci.js';
import { compositeStatus } from '../../commit-statuses/api.js';

const LABELS: Partial<Record<CiStatus, string>> = { success: 'passed', waiting_for_resource: 'waiting for resource', scheduled: 'delayed' };
const ICONS: Record<CiStatus, string> = {
  created: '○', waiting_for_resource: '◷', preparing: '◷', pending: '◷', running: '◔', success: '✓', failed: '✕', canceled: '⊘', skipped: '»', manual: '⚙', scheduled: '⏲',
};

export function statusLabel(status: CiStatus): string {
  return LABELS[status] ?? status;
}

/** The badge: icon and word. */
export function ciBadge(status: CiStatus): Html {
  return html`<span class="status ci-badge status-${status}" data-ci-status="${status}"><span aria-hidden="true">${ICONS[status]}</span> ${statusLabel(status)}</span>`;
}

/** The icon alone, named for screen readers (the stages mini-graph, a job in a stage). */
export function ciIcon(status: CiStatus, name: string, href?: string): Html {
  const label = `${name}: ${statusLabel(status)}`;
  const icon = html`<span aria-hidden="true">${ICONS[status]}</span><span class="visually-hidden">${label}</span>`;
  return href
    ? html`<a class="ci-icon status-${status}" data-ci-status="${status}" href="${href}" title="${label}">${icon}</a>`
    : html`<span class="ci-icon status-${status}" data-ci-status="${status}" title="${label}">${icon}</span>`;
}

/** GitLab's hh:mm:ss. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return '';
  const whole = Math.max(0, Math.round(seconds));
  return [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60].map((part) => String(part).padStart(2, '0')).join(':');
}

export function durationBetween(from: number | null, to: number | null): number | null {
  return from !== null && to !== null ? (Number(to) - Number(from)) / 1000 : null;
}

export function moment(ms: number | null): Html {
  const iso = isoTime(ms);
  return iso ? html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>` : html``;
}

export interface StageSummary {
  name: string;
  index: number;
  status: CiStatus;
}

/** A pipeline's stages in order, each with the composite status of its latest jobs. */
export function stagesOf(builds: Array<{ stage: string; stage_idx: number; status: CiStatus; allow_failure: number }>): StageSummary[] {
  const byIndex = new Map<number, typeof builds>();
  for (const build of builds) byIndex.set(build.stage_idx, [...(byIndex.get(build.stage_idx) ?? []), build]);
  return [...byIndex.entries()].sort(([a], [b]) => a - b).map(([index, jobs]) => ({ name: jobs[0].stage, index, status: compositeStatus(jobs) }));
}
