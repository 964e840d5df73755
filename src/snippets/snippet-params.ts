// Parameters shared by the personal and project snippet routes, and what they become.
import type { FastifyReply } from 'fastify';
import { p, type Parsed } from '../platform/http/params.js';
import { ParamError } from '../platform/errors.js';
import { setRawHeaders } from '../platform/http/raw-headers.js';
import type { SnippetVisibility } from '../platform/db/tables/snippets.js';
import { fileActions } from './snippet-input.js';
import type { SnippetChanges } from './update-snippet.js';
import type { SnippetFileRow } from './finder.js';
import { SNIPPET_REF } from './entities.js';
import { fileBytes, isBinary } from './binary-files.js';

const VISIBILITIES = ['private', 'internal', 'public'];

export const LIST_PARAMS = {
  created_after: p.string.optional({ description: 'ISO 8601: snippets made after it' }),
  created_before: p.string.optional({ description: 'ISO 8601: snippets made before it' }),
};

export const FILE_PARAMS = {
  files: p.json.optional({ description: 'An array of {file_path, content} (on update: {action, file_path, previous_path, content})' }),
  content: p.string.optional({ max: 10 * 1024 * 1024 }),
  file_name: p.string.optional({ max: 255 }),
};

export const createParams = (visibility: 'required' | 'optional') => ({
  title: p.string.required({ allowBlank: false }),
  description: p.string.optional(),
  visibility: visibility === 'required' ? p.string.required({ values: VISIBILITIES }) : p.string.optional({ values: VISIBILITIES, default: 'internal' }),
  ...FILE_PARAMS,
});

export const UPDATE_PARAMS = {
  title: p.string.optional({ allowBlank: false }),
  description: p.string.optional(),
  visibility: p.string.optional({ values: VISIBILITIES }),
  ...FILE_PARAMS,
};

function time(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new ParamError(`${name} is invalid`);
  return ms;
}

export function listDates(params: Parsed<typeof LIST_PARAMS>) {
  return { createdAfter: time('created_after', params.created_after), createdBefore: time('created_before', params.created_before) };
}

export function updateChanges(params: Parsed<typeof UPDATE_PARAMS>): SnippetChanges {
  const given = ['title', 'file_name', 'content', 'files', 'visibility', 'description'].filter((key) => params[key as keyof typeof params] !== undefined);
  if (given.length === 0) throw new ParamError('title, file_name, content, files, visibility, description are missing, at least one parameter must be provided');
  return {
    title: params.title, description: params.description, visibility: params.visibility as SnippetVisibility | undefined,
    files: params.files === undefined ? undefined : fileActions(params.files), content: params.content, fileName: params.file_name,
  };
}

/** A file as GitLab's raw endpoints send it, never rendered: plain text, or a binary file's bytes unchanged. */
export function sendRaw(reply: FastifyReply, file: SnippetFileRow | undefined): FastifyReply {
  if (!file) return reply.code(404).send({ message: '404 File Not Found' });
  setRawHeaders(reply, file.path.split('/').pop()!, isBinary(file) ? 'application/octet-stream' : 'text/plain; charset=utf-8');
  return reply.send(fileBytes(file));
}

/** The file a `files/:ref/:file_path/raw` route names (the only ref is the snippet's `main`, or HEAD). */
export function fileAt(files: SnippetFileRow[], ref: string, path: string): SnippetFileRow | undefined {
  if (ref !== SNIPPET_REF && ref !== 'HEAD') return undefined;
  return files.find((file) => file.path === path);
}
