// POST /markdown (lib/api/markdown.rb): render text, as GitLab Flavored Markdown with `gfm`, in the
// context of `project` (a full path the caller can read, "404 Project Not Found" otherwise).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { NotFoundError } from '../platform/errors.js';
import { findProject } from '../accounts/api.js';
import { renderGitlabMarkdown } from './render-gitlab-markdown.js';

export function markdownRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'POST', url: '/markdown', summary: 'Render Markdown to HTML', tags: ['markdown'],
    // GitLab 14 renders for anonymous callers too; the project context is checked below.
    ability: { instance: 'read_instance' }, auth: 'optional', status: 201,
    params: { text: p.string.required({ max: 1_000_000 }), gfm: p.boolean.optional(), project: p.string.optional() },
    handler: async ({ params, principal }) => {
      let project;
      if (params.project !== undefined) {
        // Only a full path names the project here (Project.find_by_full_path), never an id.
        if (!params.project.includes('/')) throw new NotFoundError('Project');
        project = await findProject(deps, principal, params.project);
      }
      return { html: await renderGitlabMarkdown(deps, params.text, { gfm: params.gfm === true, project }) };
    },
  });
}
