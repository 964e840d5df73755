// Git LFS at GitLab's addresses under a project's repository URL (`/<namespace>/<project>.git/…`): the
// batch API, the locks API and basic transfer. They speak git-lfs's protocol with HTTP Basic, like git's
// smart HTTP: each handler authenticates and asks the git access decision itself (lfs-request.ts).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { namespacedRoute } from '../../platform/http/namespaced-routes.js';
import { serveBatch } from './batch.js';
import { serveDownload, serveUpload } from './transfer.js';
import { lfsError } from './lfs-request.js';
import { createLock, listLocks, unlock, verifyLocks } from './locks.js';

export function lfsRoutes(app: FastifyInstance, deps: Deps): void {
  namespacedRoute(app, {
    method: 'POST',
    pattern: /^(?<path>.+?)\.git\/info\/lfs\/objects\/batch$/,
    ability: { credential: 'git_http' },
    handler: (request, reply, groups) => serveBatch(deps, request, reply, groups.path),
  });
  namespacedRoute(app, {
    method: 'GET',
    pattern: /^(?<path>.+?)\.git\/gitlab-lfs\/objects\/(?<oid>[0-9a-f]{64})$/,
    ability: { credential: 'git_http' },
    handler: (request, reply, groups) => serveDownload(deps, request, reply, groups.path, groups.oid),
  });
  namespacedRoute(app, {
    method: 'PUT',
    pattern: /^(?<path>.+?)\.git\/gitlab-lfs\/objects\/(?<oid>[0-9a-f]{64})\/(?<size>\d{1,16})$/,
    ability: { credential: 'git_http' },
    handler: (request, reply, groups) => serveUpload(deps, request, reply, groups.path, groups.oid, groups.size),
  });
  namespacedRoute(app, {
    method: 'GET',
    pattern: /^(?<path>.+?)\.git\/info\/lfs\/locks$/,
    ability: { credential: 'git_http' },
    handler: (request, reply, groups) => listLocks(deps, request, reply, groups.path),
  });
  namespacedRoute(app, {
    method: 'POST',
    pattern: /^(?<path>.+?)\.git\/info\/lfs\/locks$/,
    ability: { credential: 'git_http' },
    handler: (request, reply, groups) => createLock(deps, request, reply, groups.path),
  });
  namespacedRoute(app, {
    method: 'POST',
    pattern: /^(?<path>.+?)\.git\/info\/lfs\/locks\/verify$/,
    ability: { credential: 'git_http' },
    handler: (request, reply, groups) => verifyLocks(deps, request, reply, groups.path),
  });
  namespacedRoute(app, {
    method: 'POST',
    pattern: /^(?<path>.+?)\.git\/info\/lfs\/locks\/(?<id>\d{1,18})\/unlock$/,
    ability: { credential: 'git_http' },
    handler: (request, reply, groups) => unlock(deps, request, reply, groups.path, groups.id),
  });
  // git-lfs before 1.0.1 spoke a per-object API; GitLab answers it with this.
  namespacedRoute(app, {
    method: ['GET', 'POST'],
    pattern: /^(?<path>.+?)\.git\/info\/lfs\/objects(?:\/[0-9a-f]{64})?$/,
    ability: { credential: 'none' },
    handler: (_request, reply) => lfsError(deps, reply, 501, 'Server supports batch API only, please update your Git LFS client to version 1.0.1 and up.'),
  });
}
