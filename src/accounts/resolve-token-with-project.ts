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
import { prefetchedReader, type Row } from './prefetched-project.js';
import { tokenLookupOf, type TokenRow } from './resolve-personal-access-token.js';
import { TOKEN_WITH_PROJECT_TABLES, tokenWithProject } from './token-with-project-queries.js';

const DIGITS = /^\d+$/;

export async function resolveTokenWithProject(deps: Deps, token: string, idOrPath: string): Promise<{ lookup: TokenLookup; project: PrefetchedProject | null }> {
  // Named as findProjectRow names it: digits are an id, a path has a slash; 0 and '' match nothing.
  const id = DIGITS.test(idOrPath) ? Number(idOrPath) : 0;
  const path = id === 0 && idOrPath.includes('/') ? idOrPath.toLowerCase() : '';
  const reader = await prefetchedReader(deps);
  const statement = tokenWithProject(reader.statements, sha256Hex(token), id, path, today(deps.clock.now()));
  const row = (await deps.reads.cached<Row>(statement, TOKEN_WITH_PROJECT_TABLES))[0];
  if (!row) return { lookup: null, project: null };
  return { lookup: await tokenLookupOf(deps, row as unknown as TokenRow), project: reader.build(row) };
}
