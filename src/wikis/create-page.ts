// WikiPages::CreateService: a new page `<slug>.<extension>` from a title, in one commit by the acting
// user ("<username> created page: <title>", or the message given). A slug that is taken, in any
// format, is GitLab's "Duplicate page".
import type { Deps } from '../platform/deps.js';
import type { AuthUser } from '../platform/auth/principal.js';
import { StatusError, ValidationError } from '../platform/errors.js';
import { commitToWiki, whileWikiWritable, writableWiki, type WikiOwner } from '../repositories/api.js';
import { fileOfPage, slugOfTitle, type WikiFormat } from './page-names.js';
import { findPageRef, loadPage, wikiSnapshot, type WikiPage } from './finder.js';
import { checkContent, commitMessage } from './page-rules.js';
import { publishPageChange } from './publish-change.js';

export interface NewPage {
  title: string;
  content: string;
  format: WikiFormat;
  message?: string;
}

export const DUPLICATE_PAGE = 'Duplicate page: A page with that title already exists';

export async function createPage(deps: Deps, user: AuthUser, owner: WikiOwner, input: NewPage): Promise<WikiPage> {
  const slug = slugOfTitle(input.title);
  if (!slug.ok) throw new ValidationError({ [slug.field]: [slug.message] });
  checkContent(input.content);
  const repoPath = await writableWiki(deps, owner);
  if (findPageRef(await wikiSnapshot(deps, owner), slug.slug)) throw new StatusError(400, DUPLICATE_PAGE);
  const path = fileOfPage(slug.slug, input.format);
  const message = commitMessage(user, 'created', slug.slug, input.message);
  const commit = await whileWikiWritable(deps, owner, () => commitToWiki(deps, repoPath, user, new Map([[path, Buffer.from(input.content, 'utf8')]]), message));
  // The page as this commit left it: what the event is titled by, and what the caller gets back.
  const snapshot = (await wikiSnapshot(deps, owner, commit.id))!;
  const created = await loadPage(snapshot, findPageRef(snapshot, slug.slug)!);
  await publishPageChange(deps, owner, user.id, { slug: slug.slug, path, action: 'create', commit: commit.id, readAt: commit.id, message }, created);
  return created;
}
