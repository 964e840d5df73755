// Wikis::CreateAttachmentService: a file committed to the wiki under `uploads/<32 hex>/<name>` (the
// random directory keeps two files of one name apart), linked from pages by that relative path.
import { randomBytes } from 'node:crypto';
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { commitToWiki, whileWikiWritable, wikiHead, writableWiki, type WikiOwner } from '../repositories/api.js';
import { markdownLink, sanitizeFilename } from '../uploads/api.js';

export interface WikiAttachment {
  file_name: string;
  file_path: string;
  branch: string;
  link: { url: string; markdown: string };
}

export async function uploadAttachment(deps: Deps, user: AuthUser, owner: WikiOwner, file: { filename: string; data: Buffer }): Promise<WikiAttachment> {
  const name = sanitizeFilename(file.filename);
  const path = `uploads/${randomBytes(16).toString('hex')}/${name}`;
  const repoPath = await writableWiki(deps, owner);
  await whileWikiWritable(deps, owner, () => commitToWiki(deps, repoPath, user, new Map([[path, file.data]]), `Upload attachment ${name}`));
  const { branch } = await wikiHead(repoPath);
  return { file_name: name, file_path: path, branch, link: { url: path, markdown: markdownLink(name, path) } };
}
