// OAuth benchmark (issue 3, Performance): the refresh_token grant, each request rotating a fresh
// refresh token from a pool issued in `seed` (rotation makes every token single-use), and
// GET /oauth/token/info. Target: refresh ≥ 2,000/s on SQLite. Token info, one URL with one token, is a
// diagnostic without a goal, as foundation.ts (issue 3 had set ≥ 0.5× the node:http baseline).
import { randomBytes } from 'node:crypto';
import { DIAGNOSTIC, type BenchScenario, type BenchTarget } from '../scenario.js';
import { sha256Hex } from '../../src/platform/crypto.js';
import { createApplication } from '../../src/oauth/applications.js';

/** Enough single-use refresh tokens for a long run at several thousand rotations per second. */
const POOL_SIZE = 100_000;
const BATCH = 500;

export const oauthScenario: BenchScenario = {
  name: 'oauth',

  async seed(deps) {
    const root = await deps.db.selectFrom('users').select('id').where('username', '=', 'root').executeTakeFirstOrThrow();
    const { application, secret } = await createApplication(deps, { name: 'bench', redirectUri: 'https://bench.example/cb', scopes: 'api read_user', confidential: true, ownerId: null });
    const now = deps.clock.now();
    const refreshTokens: string[] = [];
    const infoToken = randomBytes(32).toString('hex');
    for (let offset = 0; offset < POOL_SIZE; offset += BATCH) {
      const rows = Array.from({ length: Math.min(BATCH, POOL_SIZE - offset) }, () => {
        const refresh = randomBytes(32).toString('hex');
        refreshTokens.push(refresh);
        return {
          application_id: application.id,
          user_id: root.id,
          token_digest: sha256Hex(randomBytes(32).toString('hex')),
          refresh_digest: sha256Hex(refresh),
          previous_refresh_digest: null,
          scopes: 'api',
          expires_in: 7200,
          family_id: randomBytes(16).toString('hex'),
          grant_id: null,
          rotated_at: null,
          revoked_at: null,
          created_at: now,
        };
      });
      await deps.db.insertInto('oauth_access_tokens').values(rows).execute();
    }
    await deps.db
      .insertInto('oauth_access_tokens')
      .values({
        application_id: application.id, user_id: root.id, token_digest: sha256Hex(infoToken), refresh_digest: null, previous_refresh_digest: null,
        scopes: 'api read_user', expires_in: 365 * 86_400, family_id: randomBytes(16).toString('hex'), grant_id: null, rotated_at: null, revoked_at: null, created_at: now,
      })
      .execute();
    return { clientId: application.uid, clientSecret: secret, refreshTokens, infoToken };
  },

  async targets(_server, seeded): Promise<BenchTarget[]> {
    const pool = seeded.refreshTokens as string[];
    let next = 0;
    const credentials = `client_id=${seeded.clientId as string}&client_secret=${seeded.clientSecret as string}`;
    return [
      {
        name: 'POST /oauth/token (refresh_token, rotating)',
        method: 'POST',
        path: '/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        // Each request takes an unused refresh token; a reused one would be refused (and revoke its family).
        body: () => `grant_type=refresh_token&refresh_token=${pool[next++ % pool.length]}&${credentials}`,
        targets: { minRequestsPerSecond: 2000 },
      },
      {
        name: 'GET /oauth/token/info',
        method: 'GET',
        path: '/oauth/token/info',
        headers: { authorization: `Bearer ${seeded.infoToken as string}` },
        targets: DIAGNOSTIC,
      },
    ];
  },
};

export default oauthScenario;
