// The user entities (UserBasic, User, UserPublic) are definitions (accounts/user-entities.ts) from which
// both the object and a compiled serialiser come. Whatever a user row holds, the serialiser's bytes
// must be JSON.stringify's, and each bigger entity begins with the smaller one's fields in order.
import { describe, expect, it } from 'vitest';
import { USER_ENTITY, USER_PRIVATE_ENTITY, userBasic, userPrivate, userProfile } from '../../src/accounts/user-entities.js';
import type { UserRow } from '../../src/accounts/lookup.js';

const AWKWARD = `${Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).join('')}"\\/é😀\ud800\u2028\u2029\u007f<tag>&'`;
const LONG = `${'x'.repeat(100)}${AWKWARD}${'y'.repeat(100)}`;
const BASE = 'https://kiln.example.org:8443/sub';
const TIME = Date.parse('2026-11-24T10:11:12.345Z');

const alice: UserRow = {
  id: 5, username: 'alice', username_lower: 'alice', name: 'Alice', email: 'alice@example.org', email_lower: 'alice@example.org', state: 'active', admin: 0,
  password_hash: null, otp_secret_sealed: null, otp_required: 0, otp_backup_codes: null, failed_attempts: 0, locked_until: null, bio: '', location: '',
  public_email: '', website_url: '', organization: '', private_profile: 0, user_type: 'human', last_activity_on: null, pronouns: '', theme: 'system',
  time_zone: 'UTC', password_expires_at: null, avatar: null, reset_password_digest: null, reset_password_sent_at: null, projects_limit: 100000,
  created_at: TIME, updated_at: TIME,
};

const users: Array<[string, UserRow]> = [
  ['a plain user', alice],
  ['awkward text everywhere', { ...alice, username: 'a.b-c', name: AWKWARD, bio: LONG, location: AWKWARD, public_email: AWKWARD, website_url: LONG, organization: AWKWARD, pronouns: AWKWARD, email: AWKWARD }],
  ['an uploaded avatar, an administrator with two-factor, private, blocked, active today', { ...alice, avatar: 'me é.png', admin: 1, otp_required: 1, private_profile: 1, state: 'blocked', last_activity_on: '2026-11-24', projects_limit: 0 }],
  ['a large id', { ...alice, id: 2 ** 31 + 7 }],
];

describe('the user entities and their compiled serialisers', () => {
  for (const [shape, user] of users) {
    it(`write JSON.stringify's bytes for ${shape}`, () => {
      const profile = userProfile(BASE, user);
      expect(USER_ENTITY.serialize(profile)).toBe(JSON.stringify(profile));
      for (const loaded of [{ personalProjects: 0 }, { identities: [{ provider: 'ldapmain', extern_uid: AWKWARD, saml_provider_id: null }], personalProjects: 3 }]) {
        const own = userPrivate(BASE, user, loaded);
        expect(USER_PRIVATE_ENTITY.serialize(own)).toBe(JSON.stringify(own));
      }
    });
  }

  it('extends UserBasic: the same first fields, in the same order, then the profile', () => {
    const basic = userBasic(BASE, alice);
    expect(basic).toEqual({ id: 5, username: 'alice', name: 'Alice', state: 'active', avatar_url: `${BASE}/-/avatars/alice.svg`, web_url: `${BASE}/alice` });
    const profile = userProfile(BASE, alice);
    expect(Object.keys(profile).slice(0, 6)).toEqual(Object.keys(basic));
    expect(Object.keys(profile).slice(6)).toEqual(['created_at', 'bio', 'location', 'public_email', 'skype', 'linkedin', 'twitter', 'website_url', 'organization', 'job_title', 'pronouns', 'bot']);
    expect(profile).toMatchObject({ created_at: '2026-11-24T10:11:12.345Z', pronouns: null, bot: false, skype: '' });
    const own = userPrivate(BASE, { ...alice, projects_limit: 1 }, { personalProjects: 1 });
    expect(Object.keys(own).slice(0, 18)).toEqual(Object.keys(profile));
    expect(own).toMatchObject({ can_create_project: false, identities: [], is_admin: false, last_sign_in_at: null, confirmed_at: '2026-11-24T10:11:12.345Z' });
  });
});
