// Commit authors as people: the Kiln user whose e-mail address a commit names (one query for a whole
// page), shown with their avatar and linked to their profile; anyone else by the initial of their name.
import type { Deps } from '../../platform/deps.js';
import { html, type Html } from '../../platform/web/html.js';
import type { Signature } from '../repository-api/git-objects.js';
import { avatarUrl } from '../../accounts/api.js';

export interface KnownAuthor {
  id: number;
  username: string;
  name: string;
  avatar: string | null;
}

export type AuthorDirectory = ReadonlyMap<string, KnownAuthor>;

/** The users behind these signatures, by lower-cased e-mail address. */
export async function findAuthors(deps: Deps, signatures: readonly Signature[]): Promise<AuthorDirectory> {
  const emails = [...new Set(signatures.map((signature) => signature.email.toLowerCase()).filter((email) => email !== ''))].slice(0, 500);
  if (emails.length === 0) return new Map();
  const rows = await deps.db.selectFrom('users').select(['id', 'username', 'name', 'avatar', 'email_lower']).where('email_lower', 'in', emails).execute();
  return new Map(rows.map((row) => [row.email_lower, { id: Number(row.id), username: row.username, name: row.name, avatar: row.avatar }]));
}

export function avatarOf(authors: AuthorDirectory, signature: Signature): Html {
  const user = authors.get(signature.email.toLowerCase());
  if (user) return html`<img class="avatar" src="${avatarUrl('', user)}" alt="" width="32" height="32">`;
  const initial = [...signature.name.trim()][0]?.toUpperCase() ?? '?';
  return html`<span class="avatar" aria-hidden="true">${initial}</span>`;
}

export function authorName(authors: AuthorDirectory, signature: Signature): Html {
  const user = authors.get(signature.email.toLowerCase());
  return user ? html`<a href="/${user.username}">${signature.name}</a>` : html`<span>${signature.name}</span>`;
}
