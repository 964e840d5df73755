// The admin area's application settings pages (issue 36): each section saves through the same rules
// as PUT /application/settings, keeps what was typed and shows the error beside its field when a value
// is refused, needs the CSRF token, and is a 404 to anyone but an administrator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKiln, type TestKiln, type TestUser } from '../helpers/kiln.js';
import { WebSession } from '../helpers/browser-session.js';

let kiln: TestKiln;
let user: TestUser;
let admin: WebSession;

beforeAll(async () => {
  kiln = await testKiln();
  user = await kiln.createUser('plain-user');
  admin = new WebSession(kiln);
  await admin.signIn('root', 'root-password-1');
});
afterAll(() => kiln.close());

const settings = async () => (await kiln.api('GET', '/application/settings', { token: kiln.root.token })).body;

describe('/admin/application_settings', () => {
  it('shows each tab with the stored values, linked from the dashboard', async () => {
    expect((await admin.get('/admin')).body).toContain('href="/admin/application_settings/general"');
    const bare = await admin.get('/admin/application_settings');
    expect(bare.statusCode).toBe(302);
    expect(bare.headers.location).toBe('/admin/application_settings/general');
    const general = await admin.get('/admin/application_settings/general');
    expect(general.statusCode).toBe(200);
    expect(general.body).toContain('Sign-up restrictions');
    expect(general.body).toContain('Visibility and access controls');
    expect(general.body).toMatch(/<option value="private" selected>Private<\/option>/);
    expect(general.body).toMatch(/id="require_admin_approval_after_user_signup" name="require_admin_approval_after_user_signup" value="1" checked/);
    const network = await admin.get('/admin/application_settings/network');
    expect(network.body).toContain('Allow requests to the local network from webhooks and integrations');
    expect(network.body).toContain('User and IP rate limits');
    expect(network.body).toMatch(new RegExp(`id="throttle_protected_paths_requests_per_period" name="throttle_protected_paths_requests_per_period" value="${kiln.deps.config.protectedPathsPerMinute}"`));
    const preferences = await admin.get('/admin/application_settings/preferences');
    expect(preferences.body).toContain('href="/admin/emails"');
    expect((await admin.get('/admin/application_settings/nonsense')).statusCode).toBe(404);
  });

  it('saves the sign-up section: ticked boxes on, unticked off, domains one per line', async () => {
    const saved = await admin.post('/admin/application_settings/general', {
      section: 'signup', signup_enabled: '1', send_user_confirmation_email: '1', domain_allowlist: 'example.com\n*.example.org\n', domain_denylist: '',
    });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe('/admin/application_settings/general#signup');
    expect(await settings()).toMatchObject({
      signup_enabled: true, require_admin_approval_after_user_signup: false, send_user_confirmation_email: true,
      domain_allowlist: ['example.com', '*.example.org'], domain_denylist_enabled: false, domain_denylist: [],
    });
    const shown = await admin.get('/admin/application_settings/general');
    expect(shown.body).toContain('Sign-up restrictions: application settings saved.');
    expect(shown.body).toContain('>example.com\n*.example.org</textarea>');
    // Another section's settings were not touched by this form.
    expect((await settings()).default_project_visibility).toBe('private');
  });

  it('saves visibility settings, restricted levels as ticked boxes', async () => {
    const saved = await admin.post('/admin/application_settings/general', {
      section: 'visibility_access', default_project_visibility: 'internal', default_group_visibility: 'private', rsa_key_restriction: '3072', dsa_key_restriction: '-1',
      ecdsa_key_restriction: '0', ed25519_key_restriction: '0', ecdsa_sk_key_restriction: '0', ed25519_sk_key_restriction: '0',
    });
    expect(saved.statusCode).toBe(303);
    expect(await settings()).toMatchObject({ default_project_visibility: 'internal', restricted_visibility_levels: [], rsa_key_restriction: 3072 });
    const restricted = await kiln.app.inject({
      method: 'POST', url: '/admin/application_settings/general',
      headers: { cookie: admin.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `authenticity_token=${encodeURIComponent(csrf((await admin.get('/admin/application_settings/general')).body))}&section=visibility_access&default_project_visibility=private&default_group_visibility=private&restricted_visibility_levels%5B%5D=public&restricted_visibility_levels%5B%5D=internal&rsa_key_restriction=2048&dsa_key_restriction=-1&ecdsa_key_restriction=0&ed25519_key_restriction=0&ecdsa_sk_key_restriction=0&ed25519_sk_key_restriction=0`,
    });
    expect(restricted.statusCode).toBe(303);
    expect((await settings()).restricted_visibility_levels).toEqual(['public', 'internal']);
    expect((await admin.get('/admin/application_settings/general')).body).toContain('id="restricted_visibility_levels-public" name="restricted_visibility_levels[]" value="public" checked');
  });

  it('refuses what the API refuses, with the error beside the field and the typed value kept', async () => {
    const before = await settings();
    const tooBig = await admin.post('/admin/application_settings/general', { section: 'account_limit', max_attachment_size: '500' });
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.body).toContain('<p class="field-error" id="max_attachment_size-error">Maximum attachment size (MiB) must be less than or equal to 100</p>');
    expect(tooBig.body).toMatch(/id="max_attachment_size" name="max_attachment_size" value="500" inputmode="numeric" aria-invalid="true" aria-describedby="max_attachment_size-error max_attachment_size-hint"/);
    const notNumber = await admin.post('/admin/application_settings/general', { section: 'account_limit', max_attachment_size: 'lots' });
    expect(notNumber.statusCode).toBe(400);
    expect(notNumber.body).toContain('id="max_attachment_size-error">Maximum attachment size (MiB) is invalid</p>');
    expect(notNumber.body).toContain('value="lots"');
    const html = await admin.post('/admin/application_settings/network', {
      section: 'outbound', allow_local_requests_from_web_hooks_and_services: '1', outbound_local_requests_whitelist: '127.0.0.1\n<script>alert(1)</script>',
    });
    expect(html.statusCode).toBe(400);
    expect(html.body).toContain('Local IP addresses and domain names that hooks and integrations can access entries cannot contain HTML tags');
    expect(html.body).toContain('127.0.0.1\n&lt;script&gt;alert(1)&lt;/script&gt;</textarea>');
    expect(html.body).not.toContain('<script>alert(1)');
    // The ticked box is kept as typed too, and nothing was stored.
    expect(html.body).toMatch(/id="allow_local_requests_from_web_hooks_and_services" name="allow_local_requests_from_web_hooks_and_services" value="1" checked/);
    expect(await settings()).toEqual(before);
  });

  it('allows local requests from webhooks for one address, as the API would', async () => {
    const saved = await admin.post('/admin/application_settings/network', { section: 'outbound', allow_local_requests_from_system_hooks: '1', outbound_local_requests_whitelist: '127.0.0.1' });
    expect(saved.statusCode).toBe(303);
    expect(await settings()).toMatchObject({ allow_local_requests_from_web_hooks_and_services: false, allow_local_requests_from_system_hooks: true, outbound_local_requests_whitelist: ['127.0.0.1'] });
    const project = await kiln.createProject(kiln.root, 'hooked');
    const allowed = await kiln.api('POST', `/projects/${project.id}/hooks`, { token: kiln.root.token, body: { url: 'http://127.0.0.1:9/receiver' } });
    expect(allowed.status).toBe(201);
    const refused = await kiln.api('POST', `/projects/${project.id}/hooks`, { token: kiln.root.token, body: { url: 'http://127.0.0.2:9/receiver' } });
    expect(refused.status).toBe(422);
  });

  it('needs the CSRF token', async () => {
    const forged = await admin.post('/admin/application_settings/general', { section: 'signup', signup_enabled: '1', authenticity_token: 'forged' });
    expect(forged.statusCode).toBe(422);
  });

  it('answers 404 to a signed-in user who is not an administrator, and asks a visitor to sign in', async () => {
    const other = new WebSession(kiln);
    await other.signIn('plain-user', user.password);
    for (const path of ['/admin/application_settings', '/admin/application_settings/general', '/admin/application_settings/network']) {
      const answer = await other.get(path);
      expect(answer.statusCode, path).toBe(404);
      expect(answer.body).not.toContain('Sign-up restrictions');
    }
    expect((await other.post('/admin/application_settings/general', { section: 'signup', signup_enabled: '1' }, { csrfFrom: '/profile' })).statusCode).toBe(404);
    expect((await settings()).signup_enabled).toBe(true);
    const visitor = await kiln.request('GET', '/admin/application_settings/general');
    expect(visitor.statusCode).toBe(302);
    expect(visitor.headers.location).toMatch(/^\/users\/sign_in\?return_to=/);
  });
});

function csrf(body: string): string {
  return /name="authenticity_token" value="([^"]+)"/.exec(body)![1]!;
}
