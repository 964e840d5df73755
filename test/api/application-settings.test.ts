// GET and PUT /application/settings (administrators) and GET /metadata, as GitLab's settings and
// metadata APIs: every setting sent is stored and read back, or refused with a 400 naming it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { readApplicationSettings } from '../../src/application-settings/api.js';

let kiln: TestKiln;
let user: TestUser;

beforeAll(async () => {
  kiln = await testKiln();
  user = await kiln.createUser('settings-user');
});
afterAll(() => kiln.close());

/**
 * A value for every setting, with the value GitLab then shows: the settings Kiln acts on with a value
 * other than their default, the ones it behaves as their default with that default.
 */
const EVERY_SETTING: Record<string, { send: unknown; read: unknown }> = {
  signup_enabled: { send: true, read: true },
  require_admin_approval_after_user_signup: { send: false, read: false },
  send_user_confirmation_email: { send: true, read: true },
  domain_allowlist: { send: 'example.com, *.example.org', read: ['example.com', '*.example.org'] },
  domain_denylist_enabled: { send: true, read: true },
  domain_denylist: { send: ['spam.example'], read: ['spam.example'] },
  password_authentication_enabled_for_web: { send: true, read: true },
  password_authentication_enabled_for_git: { send: true, read: true },
  require_two_factor_authentication: { send: false, read: false },
  two_factor_grace_period: { send: 48, read: 48 },
  user_oauth_applications: { send: true, read: true },
  user_default_external: { send: false, read: false },
  gravatar_enabled: { send: true, read: true },
  default_project_visibility: { send: 'internal', read: 'internal' },
  default_group_visibility: { send: 'public', read: 'public' },
  restricted_visibility_levels: { send: ['public', 'internal'], read: ['public', 'internal'] },
  default_projects_limit: { send: 100_000, read: 100_000 },
  default_branch_protection: { send: 2, read: 2 },
  max_attachment_size: { send: 25, read: 25 },
  snippet_size_limit: { send: 1_048_576, read: 1_048_576 },
  session_expire_delay: { send: 10_080, read: 10_080 },
  allow_local_requests_from_web_hooks_and_services: { send: true, read: true },
  allow_local_requests_from_system_hooks: { send: false, read: false },
  outbound_local_requests_whitelist: { send: ['10.0.0.0/8', 'hooks.internal:8080'], read: ['10.0.0.0/8', 'hooks.internal:8080'] },
  dns_rebinding_protection_enabled: { send: true, read: true },
  home_page_url: { send: '', read: null },
  after_sign_out_path: { send: '', read: null },
  sign_in_text: { send: '', read: null },
  after_sign_up_text: { send: '', read: null },
  help_page_text: { send: '', read: null },
};

/** Settings Kiln has no code path for, a value other than the default it behaves as, and the 400. */
const FIXED: Array<[string, unknown, string]> = [
  ['password_authentication_enabled_for_web', false, 'cannot be disabled: password sign-in is the only sign-in on this server'],
  ['password_authentication_enabled_for_git', false, 'cannot be disabled: passwords and tokens are how git authenticates on this server'],
  ['two_factor_grace_period', 12, 'is not supported by this server (two-factor authentication is not enforced)'],
  ['user_oauth_applications', false, 'cannot be disabled: this server does not support turning off user OAuth applications'],
  ['user_default_external', true, 'cannot be enabled: this server has no external users'],
  ['gravatar_enabled', false, 'cannot be disabled: this server does not support turning off Gravatar'],
  ['default_branch_protection', 1, 'is not supported by this server'],
  ['session_expire_delay', 60, 'is not supported by this server (sessions last one week)'],
  ['dns_rebinding_protection_enabled', false, 'cannot be disabled: this server always checks the addresses it connects to'],
  ['home_page_url', 'https://example.com/home', 'is not supported by this server'],
  ['after_sign_out_path', 'https://example.com/bye', 'is not supported by this server'],
  ['sign_in_text', 'Welcome', 'is not supported by this server'],
  ['after_sign_up_text', 'Thanks', 'is not supported by this server'],
  ['help_page_text', 'Ask #help', 'is not supported by this server (it has no help page)'],
];

describe('GET /api/v4/application/settings', () => {
  describe('as an administrator', () => {
    it("returns GitLab's defaults before anything is changed", async () => {
      const { status, body } = await kiln.api('GET', '/application/settings', { token: kiln.root.token });
      expect(status).toBe(200);
      expect(body).toMatchObject({
        id: 1,
        signup_enabled: false,
        require_admin_approval_after_user_signup: true,
        send_user_confirmation_email: false,
        domain_allowlist: [],
        domain_denylist_enabled: false,
        domain_denylist: [],
        default_project_visibility: 'private',
        default_group_visibility: 'private',
        restricted_visibility_levels: [],
        allow_local_requests_from_web_hooks_and_services: false,
        allow_local_requests_from_hooks_and_services: false,
        outbound_local_requests_whitelist: [],
        max_attachment_size: 100,
        snippet_size_limit: 52428800,
        default_projects_limit: 100000,
        default_branch_protection: 2,
        session_expire_delay: 10080,
        password_authentication_enabled_for_web: true,
        signin_enabled: true,
        home_page_url: null,
      });
    });
  });

  describe('as a user who is not an administrator', () => {
    it('returns 403', async () => {
      const { status, body } = await kiln.api('GET', '/application/settings', { token: user.token });
      expect(status).toBe(403);
      expect(body).toEqual({ message: '403 Forbidden' });
    });
  });

  describe('anonymously', () => {
    it('returns 401', async () => {
      expect((await kiln.api('GET', '/application/settings')).status).toBe(401);
    });
  });
});

describe('PUT /api/v4/application/settings', () => {
  describe('as an administrator', () => {
    it('stores every setting it sends and reads each back', async () => {
      const body = Object.fromEntries(Object.entries(EVERY_SETTING).map(([name, { send }]) => [name, send]));
      const put = await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      const { body: read } = await kiln.api('GET', '/application/settings', { token: kiln.root.token });
      for (const [name, { read: value }] of Object.entries(EVERY_SETTING)) {
        expect(put.body[name], name).toEqual(value);
        expect(read[name], name).toEqual(value);
      }
      expect(read.updated_at).toBe('2026-11-22T08:00:00.000Z');
    });

    it('accepts form parameters and comma-separated arrays (python-gitlab sends restricted_visibility_levels joined)', async () => {
      const { status, body } = await kiln.api('PUT', '/application/settings', {
        token: kiln.root.token,
        form: { restricted_visibility_levels: 'private,20', outbound_local_requests_whitelist: 'a.example.com\nb.example.com', signup_enabled: 'false' },
      });
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body.restricted_visibility_levels).toEqual(['private', 'public']);
      expect(body.outbound_local_requests_whitelist).toEqual(['a.example.com', 'b.example.com']);
      expect(body.signup_enabled).toBe(false);
    });

    it('keeps the settings it does not send', async () => {
      await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { default_group_visibility: 'internal' } });
      const { body } = await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { default_project_visibility: 'public' } });
      expect([body.default_group_visibility, body.default_project_visibility]).toEqual(['internal', 'public']);
    });

    it("accepts GitLab's legacy names for the settings they renamed", async () => {
      const { body } = await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { signin_enabled: true, allow_local_requests_from_hooks_and_services: false, domain_whitelist: ['legacy.example'], domain_blacklist_enabled: false } });
      expect([body.domain_allowlist, body.domain_denylist_enabled]).toEqual([['legacy.example'], false]);
      expect(body.password_authentication_enabled_for_web).toBe(true);
      expect(body.allow_local_requests_from_web_hooks_and_services).toBe(false);
      const back = await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { allow_local_requests_from_hooks_and_services: true } });
      expect(back.body.allow_local_requests_from_web_hooks_and_services).toBe(true);
      // The legacy name of a setting Kiln behaves as its default refuses the other value under the current name.
      const refused = await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { password_authentication_enabled: false } });
      expect(refused.status).toBe(400);
      expect(refused.body.message.password_authentication_enabled_for_web).toHaveLength(1);
    });

    it('refuses a legacy name together with the current one (Grape: mutually exclusive)', async () => {
      const { status, body } = await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { signin_enabled: true, password_authentication_enabled_for_web: false } });
      expect(status).toBe(400);
      expect(body).toEqual({ error: 'password_authentication_enabled_for_web, signin_enabled are mutually exclusive' });
    });

    it('refuses a request that names no setting, as at_least_one_of does', async () => {
      const { status, body } = await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { unknown_thing: 1 } });
      expect(status).toBe(400);
      expect(body.error).toMatch(/^signup_enabled, .* are missing, at least one parameter must be provided$/);
    });

    it('ignores unknown parameters next to known ones', async () => {
      const { status, body } = await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { gravatar_enabled: true, not_a_setting: 'x' } });
      expect(status).toBe(200);
      expect(body.gravatar_enabled).toBe(true);
      expect(body.not_a_setting).toBeUndefined();
    });

    it('refuses a GitLab setting Kiln does not have with a 400 naming it, and stores nothing of that request', async () => {
      const { status, body } = await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { plantuml_enabled: true, default_group_visibility: 'private' } });
      expect(status).toBe(400);
      expect(body).toEqual({ message: { plantuml_enabled: ['is not supported by this server'] } });
      expect((await kiln.api('GET', '/application/settings', { token: kiln.root.token })).body.default_group_visibility).not.toBe('private');
    });

    const REFUSALS: Array<[string, Record<string, unknown>, unknown]> = [
      ['a visibility GitLab does not know', { default_project_visibility: 'secret' }, { error: 'default_project_visibility does not have a valid value' }],
      ['a restricted level GitLab does not know', { restricted_visibility_levels: ['public', 'hidden'] }, { message: { restricted_visibility_levels: ["'hidden' is not a valid visibility level"] } }],
      ['a non-integer size', { max_attachment_size: 'big' }, { error: 'max_attachment_size is invalid' }],
      ['a size of 0', { max_attachment_size: 0 }, { message: { max_attachment_size: ['must be greater than 0'] } }],
      ['a size above 100 MiB', { max_attachment_size: 101 }, { message: { max_attachment_size: ['must be less than or equal to 100'] } }],
      ['a snippet size limit of 0', { snippet_size_limit: 0 }, { message: { snippet_size_limit: ['must be greater than 0'] } }],
      ['a negative projects limit', { default_projects_limit: -1 }, { message: { default_projects_limit: ['must be greater than or equal to 0'] } }],
      ['a branch protection outside 0..3', { default_branch_protection: 4 }, { error: 'default_branch_protection does not have a valid value' }],
      ['a home page that is not a URL', { home_page_url: 'javascript:alert(1)' }, { message: { home_page_url: ['must be a valid URL'] } }],
      ['a boolean that is not one', { signup_enabled: 'maybe' }, { error: 'signup_enabled is invalid' }],
      ['an allowlist entry with HTML', { outbound_local_requests_whitelist: ['<b>x</b>'] }, { message: { outbound_local_requests_whitelist: ['entries cannot contain HTML tags'] } }],
      ['an allowlist entry that is not IDNA', { outbound_local_requests_whitelist: ['bücher.example'] }, { message: { outbound_local_requests_whitelist: ['unicode domains should use IDNA encoding'] } }],
      ['an allowlist entry longer than 255', { outbound_local_requests_whitelist: [`${'a'.repeat(256)}`] }, { message: { outbound_local_requests_whitelist: ['entries cannot be larger than 255 characters'] } }],
      ['an allowlist of 1001 entries', { outbound_local_requests_whitelist: Array.from({ length: 1001 }, (_, i) => `h${i}.example`) }, { message: { outbound_local_requests_whitelist: ['is too long (maximum is 1000 entries)'] } }],
      ['two-factor enforcement without a grace period', { require_two_factor_authentication: true }, { error: 'two_factor_grace_period is missing' }],
    ];
    for (const [name, value, message] of FIXED) {
      it(`refuses ${name} other than the default Kiln behaves as, with a 400 naming it, and keeps the default`, async () => {
        const response = await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { [name]: value } });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({ message: { [name]: [message] } });
        const read = await kiln.api('GET', '/application/settings', { token: kiln.root.token });
        expect(read.body[name]).not.toEqual(value);
      });
    }

    for (const [what, body, answer] of REFUSALS) {
      it(`refuses ${what} with a 400 naming the setting`, async () => {
        const response = await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body });
        expect(response.status).toBe(400);
        expect(response.body).toEqual(answer);
      });
    }
  });

  describe('as a user who is not an administrator', () => {
    it('returns 403 and changes nothing', async () => {
      const { status } = await kiln.api('PUT', '/application/settings', { token: user.token, body: { signup_enabled: true, max_attachment_size: 99 } });
      expect(status).toBe(403);
      expect((await kiln.api('GET', '/application/settings', { token: kiln.root.token })).body.max_attachment_size).not.toBe(99);
    });
  });
});

describe('readApplicationSettings (the reader other features use)', () => {
  it('returns the stored value over the default', async () => {
    await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { allow_local_requests_from_web_hooks_and_services: true } });
    expect((await readApplicationSettings(kiln.deps.db)).allow_local_requests_from_web_hooks_and_services).toBe(true);
    await kiln.api('PUT', '/application/settings', { token: kiln.root.token, body: { allow_local_requests_from_web_hooks_and_services: false } });
    expect((await readApplicationSettings(kiln.deps.db)).allow_local_requests_from_web_hooks_and_services).toBe(false);
  });
});

describe('GET /api/v4/metadata', () => {
  describe('as a signed-in user', () => {
    it('returns version, revision, kas and enterprise as GitLab, the same as /version', async () => {
      const { status, body } = await kiln.api('GET', '/metadata', { token: user.token });
      expect(status).toBe(200);
      expect(body).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+/), revision: expect.any(String), kas: { enabled: false, externalUrl: null, version: null }, enterprise: expect.any(Boolean) });
      expect((await kiln.api('GET', '/version', { token: user.token })).body).toEqual(body);
    });

    it('admits a read_user token, as GitLab does for GET', async () => {
      const reader = await kiln.createUser('metadata-reader', { scopes: ['read_user'] });
      expect((await kiln.api('GET', '/metadata', { token: reader.token })).status).toBe(200);
    });
  });

  describe('anonymously', () => {
    it('returns 401', async () => {
      expect((await kiln.api('GET', '/metadata')).status).toBe(401);
    });
  });
});
