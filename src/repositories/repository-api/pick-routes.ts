// Cherry-pick and revert a commit onto a branch (doc/api/commits.md: "Cherry-pick a commit", "Revert a
// commit"), with push_code and the branch's push rules: 201 with the new commit, or 200 with
// `{"dry_run": "success"}` for a dry run that would succeed.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { p } from '../../platform/http/params.js';
import { repositoryRoute } from './route-kit.js';
import { findProjectCommit } from './commits-finder.js';
import { commitEntity } from './entities.js';
import { pickCommit, type PickKind } from './pick-commit.js';

const TAGS = ['commits'];

export function pickRoutes(app: FastifyInstance, deps: Deps): void {
  for (const [kind, summary] of [['cherry_pick', 'Cherry-pick a commit onto a branch'], ['revert', 'Revert a commit on a branch']] as Array<[PickKind, string]>) {
    repositoryRoute(app, deps, {
      method: 'POST', url: `/projects/:id/repository/commits/:sha/${kind}`, summary, tags: TAGS,
      ability: { project: 'push_code' },
      params: {
        id: p.string.required(),
        sha: p.string.required(),
        branch: p.string.required({ allowBlank: false }),
        dry_run: p.boolean.optional({ default: false }),
        // A cherry-pick's own commit message; a revert has none (GitLab ignores it there).
        message: p.string.optional(),
      },
      handler: async ({ params, project, reply }) => {
        const access = await project();
        const found = await findProjectCommit(deps, access, params.sha);
        const message = kind === 'cherry_pick' && params.message ? params.message : undefined;
        const picked = await pickCommit(deps, access, { kind, commit: found.commit, branch: params.branch, dryRun: params.dry_run === true, message });
        if (picked === null) return reply.code(200).send({ dry_run: 'success' });
        return commitEntity({ baseUrl: deps.config.baseUrl, project: access.project }, picked);
      },
    });
  }
}
