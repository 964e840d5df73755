// Binary files of a snippet (docs/snippets.md): a file pushed to the snippet's repository that is not
// UTF-8 text, or holds a NUL byte, is kept with `encoding` `base64`, its bytes base64-encoded in
// `content`. Whatever writes the files to git, sends them raw or shows them asks here for the bytes.
import type { SnippetFileEncoding } from '../platform/db/tables/snippets.js';

interface StoredFile {
  content: string;
  encoding?: SnippetFileEncoding;
}

export function isBinary(file: StoredFile): boolean {
  return file.encoding === 'base64';
}

/** The file's bytes for git or a raw download: a binary file's decoded, a text file's text. */
export function fileBytes(file: StoredFile): string | Buffer {
  return isBinary(file) ? Buffer.from(file.content, 'base64') : file.content;
}

/** What a file counts toward a snippet's size limit: characters of text, bytes of a binary file. */
export function fileSize(file: StoredFile): number {
  return isBinary(file) ? Buffer.byteLength(file.content, 'base64') : file.content.length;
}

/** The text a view of a snippet's first file shows (a webhook's `content`): none for a binary file. */
export function shownText(file: StoredFile): string {
  return isBinary(file) ? '' : file.content;
}
