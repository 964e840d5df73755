// Wire shapes of uploads (GitLab's Entities::ProjectUpload and Entities::MarkdownUploadAdmin), fields
// listed explicitly.
import { isoTime } from '../platform/clock.js';
import { altText, markdownLink } from './file-names.js';
import type { UploadRow } from './finder.js';

/** What Markdown links to: relative to the project, as GitLab's `url`. */
export function uploadUrl(upload: Pick<UploadRow, 'secret' | 'filename'>): string {
  return `/uploads/${upload.secret}/${upload.filename}`;
}

/** The answer to an upload: `url` for Markdown, `full_path` from the instance's root. */
export function projectUploadEntity(upload: UploadRow) {
  const url = uploadUrl(upload);
  return {
    id: Number(upload.id),
    alt: altText(upload.filename),
    url,
    full_path: `/-/project/${Number(upload.project_id)}${url}`,
    markdown: markdownLink(upload.filename, url),
  };
}

export interface Uploader {
  id: number;
  name: string;
  username: string;
}

export function uploadListEntity(upload: UploadRow, uploader: Uploader | undefined) {
  return {
    id: Number(upload.id),
    size: Number(upload.size),
    filename: upload.filename,
    created_at: isoTime(upload.created_at),
    uploaded_by: uploader ? { id: uploader.id, name: uploader.name, username: uploader.username } : null,
  };
}
