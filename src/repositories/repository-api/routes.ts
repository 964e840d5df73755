// The repository API (GitLab's branches, tags, repository files, commits and repositories APIs) on
// the repositories Kiln hosts: reads with download_code, writes as commits and ref updates that
// follow the rules of a push (write-ref.ts).
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { branchRoutes } from './branch-routes.js';
import { tagRoutes } from './tag-routes.js';
import { fileRoutes } from './file-routes.js';
import { commitRoutes } from './commit-routes.js';
import { pickRoutes } from './pick-routes.js';
import { languagesRoutes } from './languages.js';
import { repositoryRoutes } from './repository-routes.js';

export function repositoryApiRoutes(app: FastifyInstance, deps: Deps): void {
  branchRoutes(app, deps);
  tagRoutes(app, deps);
  fileRoutes(app, deps);
  commitRoutes(app, deps);
  pickRoutes(app, deps);
  languagesRoutes(app, deps);
  repositoryRoutes(app, deps);
}
