// How a file is shown and served, from its name and content (GitLab's blob viewers): images inline,
// Markdown rendered, binary files offered for download, text up to 1 MiB shown (up to 10 MiB on
// request, GitLab's "load it anyway"), anything larger only downloaded.
import { isBinary } from '../repository-api/files-finder.js';

export const SHOWN_BYTES = 1024 * 1024;
export const MAX_SHOWN_BYTES = 10 * 1024 * 1024;

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  ico: 'image/x-icon',
  svg: 'image/svg+xml',
};

function extension(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

export function imageType(path: string): string | null {
  return IMAGE_TYPES[extension(path)] ?? null;
}

/** The content type a raw file is served with: never HTML, so nothing in a repository runs as a page. */
export function rawContentType(path: string, content: Buffer): string {
  const image = imageType(path);
  if (image) return image;
  return isBinary(content) ? 'application/octet-stream' : 'text/plain; charset=utf-8';
}

export function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
