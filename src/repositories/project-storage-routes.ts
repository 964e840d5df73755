// Two administrators' views of a project's repository (doc/api/projects.md): where it is stored
// (GET /projects/:id/storage, GitLab's ProjectRepositoryStorage entity) and a snapshot of it (GET
// /projects/:id/snapshot: a tar of the bare repository, or of the wiki's with `wiki=true`, as Gitaly's
// GetSnapshot gives, for copying a repository that `git clone` cannot reproduce whole). Both are
// checked as GitLab's `authenticated_as_admin!`: 403 for everyone else, before the project is read.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { NotFoundError } from '../platform/errors.js';
import { isoTime } from '../platform/clock.js';
import { findProject } from '../accounts/api.js';
import { diskPathFor, findRepository } from './ensure-repository.js';
import { repositoryPath } from './shards.js';

const ADMIN = { instance: 'admin_all_resources' } as const;
const tags = ['projects'];

export function projectStorageRoutes(app: FastifyInstance, deps: Deps): void {
  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/storage', summary: "Where the project's repository is stored (administrators)", tags,
    ability: ADMIN, params: { id: p.string.required() },
    handler: async ({ params, principal }) => {
      const { project } = await findProject(deps, principal, params.id);
      const row = await findRepository(deps, 'project', Number(project.id));
      // A project without a repository yet will get it on the storage a first write picks; its path is known now.
      const diskPath = (row?.disk_path ?? diskPathFor({ type: 'project', id: Number(project.id) })).replace(/\.git$/, '');
      return { project_id: Number(project.id), disk_path: diskPath, created_at: isoTime(project.created_at), repository_storage: row?.shard ?? deps.config.storages[0].name };
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/snapshot', summary: "A tar of the project's bare repository, or its wiki's (administrators)", tags,
    ability: ADMIN, params: { id: p.string.required(), wiki: p.boolean.optional({ default: false }) },
    handler: async ({ params, principal, reply, request }) => {
      const { project } = await findProject(deps, principal, params.id);
      const row = await findRepository(deps, params.wiki ? 'project_wiki' : 'project', Number(project.id));
      const path = row ? repositoryPath(deps.config.storages, row.shard, row.disk_path) : null;
      if (path === null || !existsSync(join(path, 'HEAD'))) throw new NotFoundError('Repository');
      const child = spawn('tar', ['-c', '-f', '-', '-C', path, '.'], { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stderr.on('data', (chunk: Buffer) => request.log.warn({ stderr: chunk.toString() }, 'tar of a repository snapshot reported an error'));
      reply.raw.on('close', () => {
        if (child.exitCode === null) child.kill();
      });
      reply.headers({ 'content-type': 'application/x-tar', 'content-disposition': `attachment; filename="${project.path}${params.wiki ? '.wiki' : ''}.tar"`, 'content-transfer-encoding': 'binary' });
      return child.stdout;
    },
  });
}
