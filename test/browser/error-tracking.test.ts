// The maintainers' error tracking settings page in Debian's Chromium against a started `kiln serve`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './helpers/browser.js';
import { apiCall, startKilnProcess, type KilnProcess } from '../clients/helpers/server.js';

let kiln: KilnProcess;
let browser: Browser;
let project: { id: number; path_with_namespace: string };

const PASSWORD = 'maintainer-password-1';
const API_URL = 'https://sentry.example.com/api/0/projects/acme/web-shop/';

beforeAll(async () => {
  kiln = await startKilnProcess();
  const maintainer = await apiCall(kiln, 'POST', '/users', { username: 'mia', name: 'Mia Maintainer', email: 'mia@example.com', password: PASSWORD });
  const developer = await apiCall(kiln, 'POST', '/users', { username: 'dan', name: 'Dan Developer', email: 'dan@example.com', password: PASSWORD });
  const group = await apiCall(kiln, 'POST', '/groups', { name: 'web', path: 'web' });
  const sub = await apiCall(kiln, 'POST', '/groups', { name: 'team', path: 'team', parent_id: group.id });
  project = await apiCall(kiln, 'POST', '/projects', { name: 'shop', path: 'shop', namespace_id: sub.id });
  await apiCall(kiln, 'POST', `/projects/${project.id}/members`, { user_id: maintainer.id, access_level: 40 });
  await apiCall(kiln, 'POST', `/projects/${project.id}/members`, { user_id: developer.id, access_level: 30 });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await kiln?.stop();
});

describe('/:full_path/-/settings/error_tracking in a browser', () => {
  it('lets a maintainer sign in, configure the tracker, see validation errors and toggle it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const settingsUrl = `${kiln.url}/${project.path_with_namespace}/-/settings/error_tracking`;

    await page.goto(settingsUrl);
    expect(new URL(page.url()).pathname).toBe('/users/sign_in');
    await page.fill('#login', 'mia');
    await page.fill('#password', PASSWORD);
    await Promise.all([page.waitForURL(settingsUrl), page.click('button[type=submit]')]);
    expect(await page.textContent('h1')).toBe('Error tracking');

    // A private-network tracker is refused and what was typed stays in the form.
    await page.check('#error-tracking-active');
    await page.fill('#error-tracking-api-url', 'http://10.1.2.3/api/0/projects/acme/web-shop/');
    await page.fill('#error-tracking-token', 'browser-secret-token');
    await page.click('button:has-text("Save changes")');
    expect(await page.textContent('[role=alert]')).toContain('api url is blocked: Requests to the local network are not allowed');
    expect(await page.inputValue('#error-tracking-api-url')).toBe('http://10.1.2.3/api/0/projects/acme/web-shop/');

    await page.fill('#error-tracking-api-url', API_URL);
    await page.fill('#error-tracking-token', 'browser-secret-token');
    await Promise.all([page.waitForURL(settingsUrl), page.click('button:has-text("Save changes")')]);
    expect(await page.textContent('[role=status]')).toContain('Error tracking settings saved.');
    expect(await page.isChecked('#error-tracking-active')).toBe(true);
    expect(await page.inputValue('#error-tracking-api-url')).toBe(API_URL);
    expect(await page.inputValue('#error-tracking-token')).toBe('');
    expect(await page.getAttribute('#error-tracking-token', 'placeholder')).toContain('A token is stored');
    expect(await page.getAttribute('a[href="https://sentry.example.com/acme/web-shop/"]', 'href')).toBeTruthy();
    expect(await page.content()).not.toContain('browser-secret-token');

    const viaApi = await apiCall(kiln, 'GET', `/projects/${project.id}/error_tracking/settings`);
    expect(viaApi).toEqual({
      active: true, project_name: 'Web Shop', tracker_external_url: 'https://sentry.example.com/acme/web-shop/',
      sentry_external_url: 'https://sentry.example.com/acme/web-shop/', api_url: API_URL, integrated: false,
    });

    // Unchecking keeps the stored token (the field stays blank) and disables the settings.
    await page.uncheck('#error-tracking-active');
    await Promise.all([page.waitForURL(settingsUrl), page.click('button:has-text("Save changes")')]);
    expect((await apiCall(kiln, 'GET', `/projects/${project.id}/error_tracking/settings`)).active).toBe(false);
    expect((await apiCall(kiln, 'PATCH', `/projects/${project.id}/error_tracking/settings`, { active: true })).active).toBe(true);
    await context.close();
  });

  it('shows a developer the access-denied page', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${kiln.url}/users/sign_in`);
    await page.fill('#login', 'dan');
    await page.fill('#password', PASSWORD);
    await Promise.all([page.waitForURL(`${kiln.url}/`), page.click('button[type=submit]')]);
    const response = await page.goto(`${kiln.url}/${project.path_with_namespace}/-/settings/error_tracking`);
    expect(response?.status()).toBe(403);
    expect(await page.textContent('h1')).toBe('Access denied');
    expect(await page.locator('#error-tracking-api-url').count()).toBe(0);
    await context.close();
  });
});
