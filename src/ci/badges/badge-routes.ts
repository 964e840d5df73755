// A project's CI badges (GitLab's Projects::BadgesController): `/<project>/badges/<ref>/pipeline.svg`
// shows the status of the ref's newest pipeline (`unknown` without one; `ignore_skipped=true` passes
// over skipped ones), `/<project>/badges/<ref>/coverage.svg` the coverage of the ref's newest successful
// pipeline (the mean of its jobs' coverage, or the `job`'s). Both are SVG, never cached (GitLab's
// no-cache headers), and follow the project's visibility as its pages do: a private project's badge
// asks an anonymous visitor to sign in and is a 404 to a signed-in stranger. `/-/badges/…` serves the same.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { namespacedPage, setPageSecurityHeaders, type PageContext } from '../../platform/web/page-route.js';
import { ANSWERED } from '../../platform/web/page.js';
import { badgeSvg, keyOf, type Badge } from './badge-svg.js';

const PIPELINE_PATTERN = /^(?<path>.+?)(?:\/-)?\/badges\/(?<ref>.+)\/pipeline\.svg$/;
const COVERAGE_PATTERN = /^(?<path>.+?)(?:\/-)?\/badges\/(?<ref>.+)\/coverage\.svg$/;

/** GitLab's Gitlab::Ci::Badge::Pipeline::Template colours; any other status is grey. */
const STATUS_COLORS: Record<string, string> = {
  success: '#4c1', failed: '#e05d44', running: '#dfb317', pending: '#dfb317', preparing: '#a7a7a7', canceled: '#9f9f9f', skipped: '#9f9f9f', unknown: '#9f9f9f',
};

/** GitLab's coverage colours: good from 95 %, acceptable from 90 %, medium from 75 %, low below. */
function coverageColor(coverage: number | null): string {
  if (coverage === null) return '#9f9f9f';
  if (coverage >= 95) return '#4c1';
  if (coverage >= 90) return '#a3c51c';
  return coverage >= 75 ? '#dfb317' : '#e05d44';
}

function sendBadge(context: PageContext, badge: Badge) {
  setPageSecurityHeaders(context.reply);
  // GitLab's no_cache_headers: a badge must show the status now, not a proxy's copy.
  context.reply
    .header('cache-control', 'max-age=0, private, must-revalidate, no-store')
    .header('pragma', 'no-cache')
    .header('expires', 'Fri, 01 Jan 1990 00:00:00 GMT')
    .type('image/svg+xml; charset=utf-8')
    .send(badgeSvg(badge));
  return ANSWERED;
}

async function pipelineStatus(deps: Deps, projectId: number, ref: string, ignoreSkipped: boolean): Promise<string> {
  let query = deps.db.selectFrom('ci_pipelines').select('status').where('project_id', '=', projectId).where('ref', '=', ref);
  if (ignoreSkipped) query = query.where('status', '!=', 'skipped');
  const row = await query.orderBy('id', 'desc').limit(1).executeTakeFirst();
  return row?.status ?? 'unknown';
}

async function refCoverage(deps: Deps, projectId: number, ref: string, job: string | undefined): Promise<number | null> {
  const pipeline = await deps.db.selectFrom('ci_pipelines').select('id').where('project_id', '=', projectId).where('ref', '=', ref).where('status', '=', 'success').orderBy('id', 'desc').limit(1).executeTakeFirst();
  if (!pipeline) return null;
  let query = deps.db.selectFrom('ci_builds').select((eb) => eb.fn.avg<number | string | null>('coverage').as('coverage')).where('commit_id', '=', pipeline.id).where('retried', '=', 0).where('coverage', 'is not', null);
  if (job !== undefined) query = query.where('name', '=', job);
  const row = await query.executeTakeFirst();
  return row?.coverage === null || row?.coverage === undefined ? null : Number(row.coverage);
}

export function badgeRoutes(app: FastifyInstance, deps: Deps): void {
  namespacedPage(app, deps, {
    method: 'GET', pattern: PIPELINE_PATTERN, ability: { project: 'read_project' }, auth: 'optional',
    handler: async (context) => {
      const access = await context.project();
      const status = await pipelineStatus(deps, Number(access.project.id), context.match.ref, context.query.ignore_skipped === 'true');
      return sendBadge(context, { ...keyOf(context.query, 'pipeline'), valueText: status === 'success' ? 'passed' : status, valueWidth: 54, valueColor: STATUS_COLORS[status] ?? STATUS_COLORS.unknown });
    },
  });
  namespacedPage(app, deps, {
    method: 'GET', pattern: COVERAGE_PATTERN, ability: { project: 'read_project' }, auth: 'optional',
    handler: async (context) => {
      const access = await context.project();
      const job = typeof context.query.job === 'string' ? context.query.job : undefined;
      const coverage = await refCoverage(deps, Number(access.project.id), context.match.ref, job);
      return sendBadge(context, {
        ...keyOf(context.query, 'coverage'),
        valueText: coverage === null ? 'unknown' : `${coverage.toFixed(2)}%`,
        valueWidth: coverage === null ? 58 : 54,
        valueColor: coverageColor(coverage),
      });
    },
  });
}
