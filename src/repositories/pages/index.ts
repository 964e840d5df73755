// The repository pages under a project's path: commits, trees, files and comparisons, each read
// through the repository API's finders and open to those who may download the code.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { namespacedPage } from '../../platform/web/page-route.js';
import { COMMIT_PATTERN, renderCommit } from './commit-page.js';
import { TREE_PATTERN, renderTree } from './tree-page.js';
import { BLOB_PATTERN, renderBlob } from './blob-page.js';
import { COMPARE_PATTERN, renderCompare } from './compare-page.js';

export function repositoryPages(app: FastifyInstance, deps: Deps): void {
  const read = { project: 'download_code' } as const;
  const pages = [
    [COMMIT_PATTERN, renderCommit],
    [TREE_PATTERN, renderTree],
    [BLOB_PATTERN, renderBlob],
    [COMPARE_PATTERN, renderCompare],
  ] as const;
  for (const [pattern, render] of pages) namespacedPage(app, deps, { method: 'GET', pattern, ability: read, auth: 'optional', handler: async (context) => render(context, await context.project()) });
}
