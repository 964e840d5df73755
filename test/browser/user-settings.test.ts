// The user's own settings pages in Chromium (issue 36): edit the profile, choose the dark theme (the
// page turns dark in a browser that prefers light), change the password, revoke another session;
// every page with no serious or critical axe-core violations, at 1280 px light and 390 px dark.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, overflowsSideways, seriousViolations, signInAs } from './helpers/browser.js';
import { apiCall, startKilnProcess, type KilnProcess } from '../clients/helpers/server.js';

const PAGES = ['/profile', '/profile/password/edit', '/profile/preferences', '/profile/active_sessions'];

let kiln: KilnProcess;
let browser: Browser;

beforeAll(async () => {
  kiln = await startKilnProcess();
  browser = await launchBrowser();
  await apiCall(kiln, 'POST', '/users', { username: 'erin', name: 'Erin', email: 'erin@example.com', password: 'erin-password-1', skip_confirmation: true });
  mkdirSync('test-results', { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await kiln?.stop();
});

async function signIn(page: Page, password: string): Promise<void> {
  await signInAs(page, kiln.url, 'erin', password);
}

const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

describe('user settings pages', () => {
  it('edits the profile, shows a field error beside its field, and switches to the dark theme', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    const page = await context.newPage();
    await signIn(page, 'erin-password-1');
    await page.goto(`${kiln.url}/profile`);
    await page.fill('#pronouns', 'they/them');
    await page.fill('#location', 'Bergen');
    await page.fill('#website_url', 'https://erin.example');
    await page.fill('#bio', 'Runs the <b>build</b> farm.');
    await page.selectOption('#public_email', 'erin@example.com');
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Update profile settings")')]);
    expect(await page.textContent('.flash')).toContain('Profile was successfully updated.');
    await page.goto(`${kiln.url}/erin`);
    expect(await page.textContent('main')).toContain('they/them');
    expect(await page.textContent('.bio')).toBe('Runs the <b>build</b> farm.');

    await page.goto(`${kiln.url}/profile`);
    await page.fill('#name', '');
    await page.fill('#name', ' ');
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Update profile settings")')]);
    expect(await page.textContent('#name-error')).toContain("Full name can't be blank");
    expect(await seriousViolations(page)).toEqual([]);

    const light = await bodyBackground(page);
    await page.goto(`${kiln.url}/profile/preferences`);
    await page.check('#theme-dark');
    await page.selectOption('#time_zone', 'Europe/Oslo');
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Save changes")')]);
    expect(await page.getAttribute('html', 'class')).toBe('theme-dark');
    expect(await bodyBackground(page)).not.toBe(light);
    expect(await bodyBackground(page)).toBe('rgb(15, 17, 23)');
    for (const path of PAGES) {
      await page.goto(`${kiln.url}${path}`);
      expect({ path, violations: await seriousViolations(page) }).toEqual({ path, violations: [] });
    }
    await page.screenshot({ path: 'test-results/user-settings-dark.png', fullPage: true });
    await context.close();
  });

  it('at 390 px, dark browser: every settings page fits and is axe-clean; a light choice wins over the browser', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    const page = await context.newPage();
    await signIn(page, 'erin-password-1');
    await page.goto(`${kiln.url}/profile/preferences`);
    await page.check('#theme-system');
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Save changes")')]);
    expect(await bodyBackground(page)).toBe('rgb(15, 17, 23)');
    for (const path of PAGES) {
      await page.goto(`${kiln.url}${path}`);
      expect({ path, overflows: await overflowsSideways(page) }).toEqual({ path, overflows: false });
      expect({ path, violations: await seriousViolations(page) }).toEqual({ path, violations: [] });
    }
    await page.screenshot({ path: 'test-results/user-settings-390.png', fullPage: true });
    await page.goto(`${kiln.url}/profile/preferences`);
    await page.check('#theme-light');
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Save changes")')]);
    expect(await bodyBackground(page)).toBe('rgb(250, 250, 250)');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('changes the password, signing out the other browser; revokes a session from the list', async () => {
    const first = await browser.newContext();
    const second = await browser.newContext();
    const here = await first.newPage();
    const there = await second.newPage();
    await signIn(here, 'erin-password-1');
    await signIn(there, 'erin-password-1');
    await here.goto(`${kiln.url}/profile/password/edit`);
    await here.fill('#current_password', 'erin-password-1');
    await here.fill('#password', 'erin-password-2');
    await here.fill('#password_confirmation', 'erin-password-2');
    await Promise.all([here.waitForNavigation(), here.click('button:has-text("Save password")')]);
    expect(await here.textContent('.flash')).toContain('Password was successfully updated.');
    await there.goto(`${kiln.url}/profile`);
    expect(there.url()).toContain('/users/sign_in');

    await signIn(there, 'erin-password-2');
    await here.goto(`${kiln.url}/profile/active_sessions`);
    expect(await here.locator('.session-item').count()).toBe(2);
    expect(await seriousViolations(here)).toEqual([]);
    await Promise.all([here.waitForNavigation(), here.click('.session-item button:has-text("Revoke")')]);
    expect(await here.textContent('.flash')).toContain('The session was revoked.');
    expect(await here.locator('.session-item').count()).toBe(1);
    await there.goto(`${kiln.url}/profile`);
    expect(there.url()).toContain('/users/sign_in');
    await first.close();
    await second.close();
  });
});
