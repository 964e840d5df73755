// The personal access token of a project-scoped API request and the project its route names, in one
// statement (token-with-project-queries.ts), registered as the route kit's look-up
// (AuthRegistry.personalAccessTokenWithProject). The token is judged exactly as
// resolvePersonalAccessToken judges it; the project is handed to findProject, which asks the same
// abilities of it as of a project it reads itself.
import type { Deps } from '../platform/deps.js';
import type { TokenLookup } from '../platform/auth/principal.js';
import type { PrefetchedProject } from '../platform/auth/subjects.js';
import { sha256Hex } from '../platform/crypto.js';
import { today } from './access.js';
import { prefetchedOf, rememberReadBy, type Row } from './prefetched-project.js';
import { tokenLookupOf, type TokenRow } from './resolve-personal-access-token.js';
import { tokenWithProject } from './token-with-project-queries.js';

const DIGITS = /^\d+$/;

export async function resolveTokenWithProject(deps: Deps, token: string, idOrPath: string): Promise<{ lookup: TokenLookup; project: PrefetchedProject | null }> {
  // Named as findProjectRow names it: digits are an id, a path has a slash; 0 and '' match nothing.
  const id = DIGITS.test(idOrPath) ? Number(idOrPath) : 0;
  const path = id === 0 && idOrPath.includes('/') ? idOrPath.toLowerCase() : '';
  const statement = tokenWithProject(sha256Hex(token), id, path, today(deps.clock.now()));
  const row = (await deps.readCache.all<Row>(statement, { cache: true }))[0];
  if (!row) return { lookup: null, project: null };
  const lookup = await tokenLookupOf(deps, row as unknown as TokenRow);
  const project = prefetchedOf(row);
  // Read again only by a caller computing an answer the cache keeps (currentPrefetched).
  if (project && deps.readCache.caching) rememberReadBy(project, statement);
  return { lookup, project };
}
