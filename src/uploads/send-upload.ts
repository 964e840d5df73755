// An upload's bytes as an answer (pages and API alike): typed from its name, never as a page of Kiln
// (sandboxed, not sniffed), inline only for types a browser shows passively (file-names.ts).
import type { FastifyReply } from 'fastify';
import { setRawHeaders } from '../platform/http/raw-headers.js';
import { servedAs } from './file-names.js';
import type { UploadRow } from './finder.js';
import { readUploadFile } from './upload-files.js';

export function sendUpload(reply: FastifyReply, root: string, upload: UploadRow): FastifyReply {
  const { type, disposition } = servedAs(upload.filename);
  setRawHeaders(reply, upload.filename, type, disposition);
  reply.header('content-length', String(upload.size));
  return reply.send(readUploadFile(root, Number(upload.project_id), upload.secret));
}
