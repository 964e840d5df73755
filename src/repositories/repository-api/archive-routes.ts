// GET /projects/:id/repository/archive and …/archive.<format> (doc/api/repositories.md): the archive
// streamed as Workhorse sends it, an attachment of type application/octet-stream.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { p } from '../../platform/http/params.js';
import { ApiError } from '../../platform/http/api-error.js';
import { repositoryRoute } from './route-kit.js';
import { ARCHIVE_FORMATS, openArchive } from './archive.js';
import { headerValue } from './file-params.js';

const TAGS = ['repositories'];

const params = {
  id: p.string.required(),
  sha: p.string.optional(),
  format: p.string.optional(),
  path: p.string.optional({ max: 4096 }),
  // LFS files as their objects' content (lfs/archive-filter.ts), or as their pointers when false.
  include_lfs_blobs: p.boolean.optional({ default: true }),
  exclude_paths: p.strings.optional(),
};

export function archiveRoutes(app: FastifyInstance, deps: Deps): void {
  for (const url of ['/projects/:id/repository/archive', '/projects/:id/repository/archive.:format']) {
    repositoryRoute(app, deps, {
      method: 'GET', url, summary: 'An archive of the repository (tar.gz, tar.bz2, tbz, tbz2, tb2, bz2, tar, zip)', tags: TAGS,
      ability: { project: 'download_code' }, auth: 'optional', params,
      handler: async ({ params: query, project, reply, request }) => {
        const format = query.format ?? 'tar.gz';
        // Grape's route requirement: an unknown format matches no route.
        if (!(ARCHIVE_FORMATS as readonly string[]).includes(format)) throw new ApiError(404, { error: '404 Not Found' });
        const archive = await openArchive(deps, await project(), { sha: query.sha, format, path: query.path, excludePaths: query.exclude_paths, includeLfsBlobs: query.include_lfs_blobs });
        const child = archive.process;
        child.stderr?.on('data', (chunk: Buffer) => request.log.warn({ stderr: chunk.toString() }, 'git archive reported an error'));
        // A client that goes away stops the archive it asked for.
        reply.raw.on('close', () => {
          if (child.exitCode === null) child.kill();
        });
        reply.headers({
          'content-type': 'application/octet-stream',
          'content-disposition': `attachment; filename="${headerValue(archive.fileName).replace(/"/g, '\\"')}"`,
          'content-transfer-encoding': 'binary',
        });
        return child.stdout;
      },
    });
  }
}
