// The search conditions of users-finder.ts (GitLab's User.search): substring matches by word, whole
// e-mail addresses, and the rank of exact matches, as raw SQL fragments for the query builder.
import { sql } from 'kysely';
import { containsPattern } from './like-pattern.js';

/** A condition no row meets. */
export function noUsers() {
  return sql<boolean>`1 = 0`;
}

/**
 * Name or username containing every one of `words`; without such words (a short term), a name or
 * username equal to `term`; or the e-mail addresses equal to `term` (the private one only for
 * administrators, `withPrivateEmail`).
 */
export function userSearch(term: string, words: string[], withPrivateEmail: boolean) {
  const byName = words.length
    ? sql.join(words.map((word) => sql`(lower(name) like ${containsPattern(word)} escape '\\')`), sql` and `)
    : sql`lower(name) = ${term}`;
  const byUsername = words.length
    ? sql.join(words.map((word) => sql`(username_lower like ${containsPattern(word)} escape '\\')`), sql` and `)
    : sql`username_lower = ${term}`;
  const byEmail = withPrivateEmail ? sql`(lower(public_email) = ${term} or email_lower = ${term})` : sql`lower(public_email) = ${term}`;
  return sql<boolean>`((${byName}) or (${byUsername}) or ${byEmail})`;
}

/** Exact matches first (public e-mail, username, name), then the rest, as GitLab orders a search. */
export function userSearchRank(term: string) {
  return sql`case when lower(public_email) = ${term} then 0 when username_lower = ${term} then 1 when lower(name) = ${term} then 2 else 3 end`;
}
