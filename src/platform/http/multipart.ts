// multipart/form-data bodies (RFC 7578), as clients send file uploads to the API (python-gitlab's
// `files=`, gitbeaker's FormData): text fields become strings, file fields UploadedFile values, in the
// same parameter bag as JSON and form bodies, with the same limits (param-bag.ts). Whole bodies are small
// (the API's 1 MiB limit applies).
import { ApiError } from './api-error.js';
import { ParamCollector } from './param-bag.js';

export interface UploadedFile {
  kind: 'file';
  filename: string;
  contentType: string;
  data: Buffer;
}

export function isUploadedFile(value: unknown): value is UploadedFile {
  return typeof value === 'object' && value !== null && (value as UploadedFile).kind === 'file';
}

const BAD_BODY = '400 Bad request - The request body is not valid multipart/form-data';

function boundaryOf(contentType: string): string | null {
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match ? (match[1] ?? match[2]) : null;
}

/** A header parameter (`name="avatar"`), with RFC 5987 `filename*` preferred when present. */
function headerParameter(header: string, name: string): string | undefined {
  const extended = new RegExp(`;\\s*${name}\\*=(?:UTF-8|utf-8)''([^;]+)`).exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]);
    } catch {
      return undefined;
    }
  }
  const quoted = new RegExp(`;\\s*${name}="((?:[^"\\\\]|\\\\.)*)"`).exec(header);
  if (quoted) return quoted[1].replace(/\\(.)/g, '$1');
  const bare = new RegExp(`;\\s*${name}=([^;\\s]+)`).exec(header);
  return bare?.[1];
}

export function parseMultipart(body: Buffer, contentType: string): Record<string, unknown> {
  const boundary = boundaryOf(contentType);
  if (!boundary) throw new ApiError(400, { message: BAD_BODY });
  const delimiter = Buffer.from(`--${boundary}`);
  const fields = new ParamCollector(true);
  let position = body.indexOf(delimiter);
  if (position === -1) throw new ApiError(400, { message: BAD_BODY });
  for (;;) {
    position += delimiter.length;
    // `--` after a delimiter closes the body.
    if (body[position] === 0x2d && body[position + 1] === 0x2d) return fields.bag;
    if (body[position] === 0x0d) position += 2;
    const headerEnd = body.indexOf('\r\n\r\n', position);
    if (headerEnd === -1) throw new ApiError(400, { message: BAD_BODY });
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), headerEnd + 4);
    if (next === -1) throw new ApiError(400, { message: BAD_BODY });
    const headers = body.subarray(position, headerEnd).toString('utf8').split('\r\n');
    const disposition = headers.find((line) => /^content-disposition:/i.test(line)) ?? '';
    const type = headers.find((line) => /^content-type:/i.test(line))?.replace(/^content-type:\s*/i, '').trim();
    const name = headerParameter(disposition, 'name');
    const filename = headerParameter(disposition, 'filename');
    const data = body.subarray(headerEnd + 4, next);
    if (name !== undefined) {
      if (filename !== undefined) fields.add(name, { kind: 'file', filename, contentType: type || 'application/octet-stream', data: Buffer.from(data) } satisfies UploadedFile);
      else fields.add(name, data.toString('utf8'));
    }
    position = next + 2;
  }
}
