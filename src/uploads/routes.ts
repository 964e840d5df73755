// The uploads API (doc/api/project_markdown_uploads.md; lib/api/projects.rb and project_uploads.rb):
// whoever may comment uploads; Maintainers list, download and delete.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../platform/deps.js';
import { apiRoute } from '../platform/http/route.js';
import { p } from '../platform/http/params.js';
import { isUploadedFile } from '../platform/http/multipart.js';
import { ParamError } from '../platform/errors.js';
import { createUpload, MAX_UPLOAD_BYTES } from './create-upload.js';
import { deleteUpload } from './delete-upload.js';
import { findUploadById, findUploadBySecret, projectUploadsQuery, type UploadRow } from './finder.js';
import { projectUploadEntity, uploadListEntity, type Uploader } from './entities.js';
import { sendUpload } from './send-upload.js';

const TAGS = ['uploads'];
/** The file and a few form fields: the largest upload plus room for the multipart framing. */
const BODY_LIMIT = MAX_UPLOAD_BYTES + 64 * 1024;
const BY_ID = { id: p.string.required(), upload_id: p.integer.required() };
const BY_SECRET = { id: p.string.required(), secret: p.string.required(), filename: p.string.required() };

export function uploadRoutes(app: FastifyInstance, deps: Deps): void {
  const uploaders = async (rows: UploadRow[]): Promise<Map<number, Uploader>> => {
    const ids = [...new Set(rows.map((row) => row.uploaded_by_user_id).filter((id): id is number => id !== null).map(Number))];
    if (ids.length === 0) return new Map();
    const users = await deps.db.selectFrom('users').select(['id', 'name', 'username']).where('id', 'in', ids).execute();
    return new Map(users.map((user) => [Number(user.id), { id: Number(user.id), name: user.name, username: user.username }]));
  };

  apiRoute(app, deps, {
    method: 'POST', url: '/projects/:id/uploads', summary: 'Upload a file for Markdown (multipart/form-data `file`)', tags: TAGS,
    ability: { project: 'upload_file' }, bodyLimit: BODY_LIMIT,
    params: { id: p.string.required(), file: p.json.required({ description: 'The file, sent as multipart/form-data' }) },
    handler: async ({ params, project, actor }) => {
      if (!isUploadedFile(params.file)) throw new ParamError('file is invalid');
      const access = await project();
      return projectUploadEntity(await createUpload(deps, actor.user.id, Number(access.project.id), params.file));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/uploads', summary: "A project's uploads, newest first", tags: TAGS, paginated: true,
    ability: { project: 'admin_upload' },
    params: { id: p.string.required() },
    handler: async ({ project, paginate }) => {
      const rows = await paginate(projectUploadsQuery(deps.db, Number((await project()).project.id)));
      const users = await uploaders(rows);
      return rows.map((row) => uploadListEntity(row, row.uploaded_by_user_id === null ? undefined : users.get(Number(row.uploaded_by_user_id))));
    },
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/uploads/:upload_id', summary: 'Download an upload by id', tags: TAGS,
    ability: { project: 'admin_upload' }, params: BY_ID,
    handler: async ({ params, project, reply }) => sendUpload(reply, deps.config.uploadsPath, await findUploadById(deps.db, Number((await project()).project.id), params.upload_id)),
  });

  apiRoute(app, deps, {
    method: 'GET', url: '/projects/:id/uploads/:secret/:filename', summary: 'Download an upload by secret and file name', tags: TAGS,
    ability: { project: 'admin_upload' }, params: BY_SECRET,
    handler: async ({ params, project, reply }) => sendUpload(reply, deps.config.uploadsPath, await findUploadBySecret(deps.db, Number((await project()).project.id), params.secret, params.filename)),
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/projects/:id/uploads/:upload_id', summary: 'Delete an upload by id', tags: TAGS,
    ability: { project: 'admin_upload' }, params: BY_ID,
    handler: async ({ params, project }) => {
      await deleteUpload(deps, await findUploadById(deps.db, Number((await project()).project.id), params.upload_id));
    },
  });

  apiRoute(app, deps, {
    method: 'DELETE', url: '/projects/:id/uploads/:secret/:filename', summary: 'Delete an upload by secret and file name', tags: TAGS,
    ability: { project: 'admin_upload' }, params: BY_SECRET,
    handler: async ({ params, project }) => {
      await deleteUpload(deps, await findUploadBySecret(deps.db, Number((await project()).project.id), params.secret, params.filename));
    },
  });
}
