// The hourly housekeeping job prunes credentials nobody can use any more (issue 13, item 6): expired
// browser sessions, expired OAuth codes (after a day), revoked OAuth tokens and expired ones without a
// refresh token (after 30 days). It keeps every live credential, and personal access tokens, which
// GitLab lists as inactive when revoked or expired.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { pruneHousekeeping } from '../../src/platform/jobs/housekeeping.js';
import { createApplication } from '../../src/oauth/applications.js';
import { createPersonalAccessToken, revokePersonalAccessToken } from '../../src/accounts/personal-access-tokens.js';

let kiln: TestKiln;
let dora: TestUser;
let applicationId: number;
const DAY = 24 * 3600_000;

beforeAll(async () => {
  kiln = await testKiln();
  dora = await kiln.createUser('dora');
  const { application } = await createApplication(kiln.deps, { name: 'Client', redirectUri: 'https://client.example/cb', scopes: 'api', confidential: true, ownerId: null });
  applicationId = Number(application.id);
});
afterAll(() => kiln.close());

describe('pruneHousekeeping', () => {
  it('deletes expired sessions, old codes and dead OAuth tokens, and keeps the rest', async () => {
    const now = kiln.clock.now();
    const db = kiln.deps.db;
    const session = (id: string, expiresAt: number) => ({ id_digest: id, user_id: dora.id, pending_user_id: null, csrf_token: 't', flash: null, created_at: now - 8 * DAY, last_seen_at: now - 8 * DAY, expires_at: expiresAt });
    await db.insertInto('web_sessions').values([session('expired', now - 1), session('expiring-now', now), session('live', now + DAY)]).execute();

    const grant = (code: string, expiresAt: number, revokedAt: number | null) => ({
      application_id: applicationId, user_id: dora.id, code_digest: code, redirect_uri: 'https://client.example/cb', scopes: 'api',
      code_challenge: null, code_challenge_method: null, nonce: null, expires_at: expiresAt, revoked_at: revokedAt, created_at: expiresAt - 600_000,
    });
    await db.insertInto('oauth_access_grants').values([
      grant('used-long-ago', now - 2 * DAY, now - 2 * DAY),
      grant('expired-long-ago', now - DAY - 1, null),
      grant('used-recently', now - 3600_000, now - 3600_000),
      grant('live', now + 300_000, null),
    ]).execute();

    const token = (name: string, fields: { createdAt: number; refresh?: boolean; revokedAt?: number | null; expiresIn?: number | null }) => ({
      application_id: applicationId, user_id: dora.id, token_digest: `access-${name}`, refresh_digest: fields.refresh ? `refresh-${name}` : null,
      previous_refresh_digest: null, scopes: 'api', expires_in: fields.expiresIn === undefined ? 7200 : fields.expiresIn, family_id: name, grant_id: null,
      rotated_at: fields.revokedAt ?? null, revoked_at: fields.revokedAt ?? null, created_at: fields.createdAt,
    });
    await db.insertInto('oauth_access_tokens').values([
      token('revoked-31-days-ago', { createdAt: now - 40 * DAY, refresh: true, revokedAt: now - 31 * DAY }),
      token('revoked-yesterday', { createdAt: now - 40 * DAY, refresh: true, revokedAt: now - DAY }),
      token('expired-without-refresh', { createdAt: now - 31 * DAY - 7200_000 - 1 }),
      token('expired-recently-without-refresh', { createdAt: now - 10 * DAY }),
      token('expired-access-live-refresh', { createdAt: now - 400 * DAY, refresh: true }),
      token('never-expires', { createdAt: now - 400 * DAY, expiresIn: null }),
      token('live', { createdAt: now - 60_000, refresh: true }),
    ]).execute();

    const revokedPat = await createPersonalAccessToken(kiln.deps, { userId: dora.id, name: 'revoked', scopes: ['api'] });
    await revokePersonalAccessToken(kiln.deps, Number(revokedPat.row.id));
    const expiredPat = await createPersonalAccessToken(kiln.deps, { userId: dora.id, name: 'expired', scopes: ['api'] });
    await db.updateTable('personal_access_tokens').set({ expires_at: '2020-01-01' }).where('id', '=', expiredPat.row.id).execute();

    const result = await pruneHousekeeping(kiln.deps);
    expect(result).toMatchObject({ sessionsPruned: 2, grantsPruned: 2, tokensPruned: 2 });

    expect((await db.selectFrom('web_sessions').select('id_digest').where('id_digest', 'in', ['expired', 'expiring-now', 'live']).execute()).map((row) => row.id_digest)).toEqual(['live']);
    expect((await db.selectFrom('oauth_access_grants').select('code_digest').orderBy('id').execute()).map((row) => row.code_digest)).toEqual(['used-recently', 'live']);
    expect((await db.selectFrom('oauth_access_tokens').select('family_id').orderBy('id').execute()).map((row) => row.family_id)).toEqual([
      'revoked-yesterday', 'expired-recently-without-refresh', 'expired-access-live-refresh', 'never-expires', 'live',
    ]);
    const pats = await db.selectFrom('personal_access_tokens').select('id').where('id', 'in', [Number(revokedPat.row.id), Number(expiredPat.row.id)]).execute();
    expect(pats).toHaveLength(2);
  });
});
