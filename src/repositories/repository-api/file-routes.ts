// Files (doc/api/repository_files.md; lib/api/files.rb): read with download_code (or a
// read_repository token), written as commits with push_code and the branch rules of a push.
// `:file_path` is URL-encoded (`lib%2Fclass%2Erb`). `raw?lfs=true` serves a Git LFS pointer's object.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../platform/deps.js';
import { p, type Parsed } from '../../platform/http/params.js';
import type { ProjectAccess } from '../../platform/auth/subjects.js';
import { repositoryRoute } from './route-kit.js';
import { blameFile, fileMetadata, findFile, isBinary } from './files-finder.js';
import { commitFiles } from './commit-files.js';
import { blameRange, checkFilePath, decodeContent, gitlabHeaders, headerValue } from './file-params.js';
import type { ActionName } from './file-actions.js';
import { lfsObjectHead, servedLfsObject } from '../lfs/pointer.js';
import { readObject } from '../lfs/object-store.js';

const TAGS = ['repository_files'];
const READ_SCOPES = ['read_repository'];
/** Files::UpdateService::FileChangedError. */
const FILE_CHANGED = 'You are attempting to update a file that has changed since you started editing it.';

const commitParams = {
  id: p.string.required(),
  file_path: p.string.required(),
  branch: p.string.required({ allowBlank: false }),
  commit_message: p.string.required({ allowBlank: false }),
  start_branch: p.string.optional(),
  author_email: p.string.optional(),
  author_name: p.string.optional(),
};

const contentParams = {
  ...commitParams,
  content: p.string.required(),
  encoding: p.string.optional({ values: ['base64', 'text'], default: 'text' }),
  last_commit_id: p.string.optional(),
  execute_filemode: p.boolean.optional(),
};

type FileWrite = Parsed<typeof commitParams> & Partial<Parsed<typeof contentParams>>;

export function fileRoutes(app: FastifyInstance, deps: Deps): void {
  repositoryRoute(app, deps, {
    method: 'GET', url: '/projects/:id/repository/files/:file_path', summary: 'A file with its base64 content (HEAD: its X-Gitlab-* headers)', tags: TAGS,
    ability: { project: 'download_code' }, auth: 'optional', extraScopes: READ_SCOPES,
    params: { id: p.string.required(), file_path: p.string.required(), ref: p.string.required({ allowBlank: false }) },
    handler: async ({ params, project, reply }) => {
      const file = await findFile(deps, await project(), checkFilePath(params.file_path), params.ref);
      const metadata = await fileMetadata(file, params.ref);
      reply.headers(gitlabHeaders(metadata));
      return { ...metadata, content: file.content.toString('base64') };
    },
  });

  repositoryRoute(app, deps, {
    method: 'GET', url: '/projects/:id/repository/files/:file_path/raw', summary: 'A file’s raw content', tags: TAGS,
    ability: { project: 'download_code' }, auth: 'optional', extraScopes: READ_SCOPES,
    params: { id: p.string.required(), file_path: p.string.required(), ref: p.string.optional({ allowBlank: false }), lfs: p.boolean.optional() },
    handler: async ({ params, project, reply }) => {
      const access = await project();
      const file = await findFile(deps, access, checkFilePath(params.file_path.replace(/^\//, '')), params.ref);
      const name = headerValue(file.path.slice(file.path.lastIndexOf('/') + 1)).replace(/"/g, '\\"');
      // `lfs=true`: a pointer to an LFS object the project holds is answered with the object.
      const lfs = params.lfs ? await servedLfsObject(deps, access.project, file.content) : null;
      const head = lfs ? await lfsObjectHead(deps, lfs.oid) : file.content;
      reply.headers({
        ...gitlabHeaders(await fileMetadata(file, params.ref)),
        'content-type': isBinary(head) ? 'application/octet-stream' : 'text/plain; charset=utf-8',
        'content-disposition': `inline; filename="${name}"; filename*=UTF-8''${encodeURIComponent(file.path.slice(file.path.lastIndexOf('/') + 1))}`,
        'cache-control': 'no-cache',
      });
      if (lfs) {
        reply.header('content-length', String(lfs.size));
        return readObject(deps.config.lfsPath, lfs.oid);
      }
      return file.content;
    },
  });

  repositoryRoute(app, deps, {
    method: 'GET', url: '/projects/:id/repository/files/:file_path/blame', summary: 'Blame ranges of a file', tags: TAGS,
    ability: { project: 'download_code' }, auth: 'optional', extraScopes: READ_SCOPES,
    params: { id: p.string.required(), file_path: p.string.required(), ref: p.string.required({ allowBlank: false }) },
    handler: async ({ params, project, reply, input }) => {
      const range = blameRange(input);
      const access = await project();
      const file = await findFile(deps, access, checkFilePath(params.file_path), params.ref);
      reply.headers(gitlabHeaders(await fileMetadata(file, params.ref)));
      return blameFile(deps, access, file, range);
    },
  });

  /** One file action as a commit (Files::CreateService, UpdateService, DeleteService). */
  const write = async (action: ActionName, access: ProjectAccess, params: FileWrite) => {
    const path = checkFilePath(params.file_path);
    await commitFiles(deps, access, {
      branch: params.branch,
      startBranch: params.start_branch,
      message: params.commit_message,
      authorName: params.author_name,
      authorEmail: params.author_email,
      actions: [{
        action,
        filePath: path,
        content: params.content === undefined ? undefined : decodeContent(params.content, params.encoding),
        executeFilemode: params.execute_filemode,
        lastCommitId: params.last_commit_id,
      }],
      changedMessage: () => FILE_CHANGED,
    });
    return { file_path: path, branch: params.branch };
  };

  repositoryRoute(app, deps, {
    method: 'POST', url: '/projects/:id/repository/files/:file_path', summary: 'Create a file (a commit)', tags: TAGS,
    ability: { project: 'push_code' }, params: contentParams,
    handler: async ({ params, project }) => write('create', await project(), params),
  });

  repositoryRoute(app, deps, {
    method: 'PUT', url: '/projects/:id/repository/files/:file_path', summary: 'Update a file (a commit)', tags: TAGS,
    ability: { project: 'push_code' }, params: contentParams,
    handler: async ({ params, project }) => write('update', await project(), params),
  });

  repositoryRoute(app, deps, {
    method: 'DELETE', url: '/projects/:id/repository/files/:file_path', summary: 'Delete a file (a commit)', tags: TAGS,
    ability: { project: 'push_code' }, params: commitParams,
    handler: async ({ params, project }) => {
      await write('delete', await project(), params);
      return undefined;
    },
  });
}
