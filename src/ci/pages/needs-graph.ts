// The pipeline's "Job dependencies" view (GitLab's "Group jobs by: Job dependencies"): the jobs in
// columns by how deep they sit in the `needs` graph, with a line from each job to each job it needs,
// drawn as an inline SVG on the server. The CSP allows no inline style, so colours come from classes
// (ci-styles.ts, light and dark) and geometry from SVG presentation attributes. Each job is a link
// whose accessible name says what it needs, so the drawing is its own text alternative.
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { html, type Html } from '../../platform/web/html.js';
import type { CiStatus } from '../../platform/db/tables/ci.js';
import { statusLabel } from './status.js';
import { jobUrl } from './shared.js';

export interface GraphJob {
  id: number | string;
  name: string;
  stage_idx: number;
  status: CiStatus;
  /** The job's `needs` (names), or null when it has none and so waits for every earlier stage. */
  needs: string[] | null;
}

const COLUMN = 208;
const BOX_WIDTH = 176;
const BOX_HEIGHT = 34;
const ROW = 50;
const PAD = 8;

/**
 * Each job's column: a job with `needs` comes after the deepest job it needs (none found: first);
 * one without `needs` waits for all jobs of the earlier stages, so it comes after the deepest of them.
 */
export function needsColumns(jobs: GraphJob[]): Map<string, number> {
  const byName = new Map(jobs.map((job) => [job.name, job]));
  const columns = new Map<string, number>();
  const visiting = new Set<string>();
  const column = (job: GraphJob): number => {
    const known = columns.get(job.name);
    if (known !== undefined) return known;
    if (visiting.has(job.name)) return 0; // a cycle cannot be created, but a stored one must not hang the page
    visiting.add(job.name);
    const before = job.needs === null ? jobs.filter((other) => other.stage_idx < job.stage_idx) : job.needs.flatMap((name) => byName.get(name) ?? []);
    const value = before.reduce((deepest, other) => Math.max(deepest, column(other) + 1), 0);
    visiting.delete(job.name);
    columns.set(job.name, value);
    return value;
  };
  for (const job of jobs) column(job);
  return columns;
}

function needsSentence(job: GraphJob, jobs: GraphJob[], present: Set<string>): string {
  if (job.needs === null) return jobs.some((other) => other.stage_idx < job.stage_idx) ? 'runs after the earlier stages' : 'needs no other job';
  const needed = job.needs.filter((name) => present.has(name));
  return needed.length ? `needs ${needed.join(', ')}` : 'needs no other job';
}

/** The drawing, in a box of its own that scrolls sideways on a narrow screen. */
export function needsGraph(access: ProjectAccess, jobs: GraphJob[]): Html {
  const columns = needsColumns(jobs);
  const rows = new Map<number, number>();
  const place = new Map<string, { x: number; y: number }>();
  for (const job of jobs) {
    const column = columns.get(job.name) ?? 0;
    const row = rows.get(column) ?? 0;
    rows.set(column, row + 1);
    place.set(job.name, { x: PAD + column * COLUMN, y: PAD + row * ROW });
  }
  const width = PAD * 2 + Math.max(...columns.values(), 0) * COLUMN + BOX_WIDTH;
  const height = PAD * 2 + (Math.max(...rows.values(), 1) - 1) * ROW + BOX_HEIGHT;
  const present = new Set(jobs.map((job) => job.name));
  const edges = jobs.flatMap((job) =>
    (job.needs ?? []).flatMap((name) => {
      const from = place.get(name);
      const to = place.get(job.name);
      if (!from || !to) return [];
      const [x1, y1, x2, y2] = [from.x + BOX_WIDTH, from.y + BOX_HEIGHT / 2, to.x, to.y + BOX_HEIGHT / 2];
      const middle = (x1 + x2) / 2;
      return [html`<path class="needs-edge" data-from="${name}" data-to="${job.name}" d="M${x1} ${y1} C${middle} ${y1} ${middle} ${y2} ${x2} ${y2}" fill="none" stroke-width="2"/>`];
    }),
  );
  // A long name is clipped at the box's edge rather than shortened, so the visible text stays part of
  // the link's accessible name (and its <title> shows it whole).
  const nodes = jobs.map((job, index) => {
    const { x, y } = place.get(job.name)!;
    const name = `${job.name}: ${statusLabel(job.status)}, ${needsSentence(job, jobs, present)}`;
    return html`<a href="${jobUrl(access, job.id)}" class="needs-node status-${job.status}" data-job="${job.name}" aria-label="${name}"><title>${name}</title><rect x="${x}" y="${y}" width="${BOX_WIDTH}" height="${BOX_HEIGHT}" rx="6" stroke-width="2"/><circle cx="${x + 17}" cy="${y + BOX_HEIGHT / 2}" r="6"/><clipPath id="needs-clip-${index}"><rect x="${x + 30}" y="${y}" width="${BOX_WIDTH - 38}" height="${BOX_HEIGHT}"/></clipPath><text x="${x + 30}" y="${y + BOX_HEIGHT / 2}" dominant-baseline="central" font-size="13" clip-path="url(#needs-clip-${index})">${job.name}</text></a>`;
  });
  return html`<div class="needs-graph-scroll" id="needs-graph" role="region" aria-label="Job dependencies" tabindex="0"><svg xmlns="http://www.w3.org/2000/svg" class="needs-graph" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" aria-labelledby="needs-graph-title"><title id="needs-graph-title">Jobs and the jobs they need</title>${edges}${nodes}</svg></div>`;
}
