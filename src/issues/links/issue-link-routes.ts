// Links between issues (doc/api/issue_links.md; lib/api/issue_links.rb). The list shows the linked
// issues the caller may read, each with its link; one link is read, made or removed through either of
// its issues, and only when the caller reads both (404 otherwise).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import type { Principal } from '../../platform/auth/principal.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { apiRoute } from '../../platform/http/route.js';
import { p } from '../../platform/http/params.js';
import { RecordNotFoundError } from '../../platform/errors.js';
import { isoTime } from '../../platform/clock.js';
import { findIssueById, findReadableIssue } from '../finder.js';
import { presentIssues } from '../present-issues.js';
import { findLinkOfIssue, readableIssue, relatedIssues, type IssueLinkRow } from './issue-links-finder.js';
import { LINK_TYPES, linkIssues, type LinkEnd, type LinkType } from './link-issues.js';
import { unlinkIssues } from './unlink-issues.js';

const TAGS = ['issue_links'];
const base = '/projects/:id/issues/:issue_iid/links';

/** GitLab's Entities::IssueLink: both issues as stored and the link type. */
async function presentLink(deps: Deps, link: IssueLinkRow, source: LinkEnd, target: LinkEnd) {
  const [sourceIssue, targetIssue] = await presentIssues(deps, [source.issue, target.issue], { projects: [source.access.project, target.access.project] });
  return { source_issue: sourceIssue, target_issue: targetIssue, link_type: link.link_type };
}

/** The link's two ends as stored, given the issue the route names; 404 when the other is unreadable. */
async function endsOf(deps: Deps, principal: Principal | null, link: IssueLinkRow, named: LinkEnd): Promise<{ source: LinkEnd; target: LinkEnd }> {
  const namedIsSource = Number(link.source_id) === Number(named.issue.id);
  const other = await readableIssue(deps, principal, await findIssueById(deps.db, Number(namedIsSource ? link.target_id : link.source_id)), named.access);
  if (!other) throw new RecordNotFoundError();
  return namedIsSource ? { source: named, target: other } : { source: other, target: named };
}

async function namedIssue(deps: Deps, access: ProjectAccess, iid: number): Promise<LinkEnd> {
  return { issue: await findReadableIssue(deps, access, iid), access };
}

export function issueLinkRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'GET', url: base, summary: "An issue's linked issues", tags: TAGS,
    ability: { project: 'read_issue' },
    params: { id: p.string.required(), issue_iid: p.integer.required() },
    handler: async ({ params, project, principal }) => {
      const access = await project();
      const issue = await findReadableIssue(deps, access, params.issue_iid);
      const related = await relatedIssues(deps, principal, issue, access);
      const presented = await presentIssues(deps, related.map((end) => end.issue), { projects: related.map((end) => end.access.project) });
      return presented.map((entity, index) => {
        const { link, linkType } = related[index]!;
        return {
          ...entity,
          issue_link_id: Number(link.id),
          link_type: linkType,
          link_created_at: isoTime(link.created_at),
          link_updated_at: isoTime(link.updated_at),
        };
      });
    },
  });

  apiRoute(app, deps, {
    method: 'POST', url: base, summary: 'Link two issues', tags: TAGS,
    ability: { project: 'read_issue' },
    params: {
      id: p.string.required(),
      issue_iid: p.integer.required(),
      target_project_id: p.string.required(),
      target_issue_iid: p.integer.required(),
      link_type: p.string.optional({ values: LINK_TYPES }),
    },
    handler: async ({ params, project, actor }) => {
      const source = await namedIssue(deps, await project(), params.issue_iid);
      const targetAccess = await deps.auth.subjects!.project(actor, params.target_project_id, 'read_issue');
      const target = await namedIssue(deps, targetAccess, params.target_issue_iid);
      const link = await linkIssues(deps, actor.user.id, source, target, (params.link_type ?? 'relates_to') as LinkType);
      const stored = Number(link.source_id) === Number(source.issue.id) ? { source, target } : { source: target, target: source };
      return presentLink(deps, link, stored.source, stored.target);
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: `${base}/:issue_link_id`, summary: 'One link of an issue', tags: TAGS,
    ability: { project: 'read_issue' },
    params: { id: p.string.required(), issue_iid: p.integer.required(), issue_link_id: p.integer.required() },
    handler: async ({ params, project, principal }) => {
      const named = await namedIssue(deps, await project(), params.issue_iid);
      const link = await findLinkOfIssue(deps.db, Number(named.issue.id), params.issue_link_id);
      const { source, target } = await endsOf(deps, principal, link, named);
      return presentLink(deps, link, source, target);
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: `${base}/:issue_link_id`, summary: 'Remove a link between two issues', tags: TAGS, status: 200,
    ability: { project: 'read_issue' },
    params: { id: p.string.required(), issue_iid: p.integer.required(), issue_link_id: p.integer.required() },
    handler: async ({ params, project, actor }) => {
      const named = await namedIssue(deps, await project(), params.issue_iid);
      const link = await findLinkOfIssue(deps.db, Number(named.issue.id), params.issue_link_id);
      const { source, target } = await endsOf(deps, actor, link, named);
      await unlinkIssues(deps, actor.user.id, link, source, target);
      return presentLink(deps, link, source, target);
    },
  });
}
