// The admin dashboard in Chromium (issue 36): reached from the top bar, axe-clean at 1280 px light
// and at 390 px dark without sideways scrolling.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, overflowsSideways, seriousViolations, signInAs } from './helpers/browser.js';
import { apiCall, ROOT_PASSWORD, startKilnProcess, type KilnProcess } from '../clients/helpers/server.js';

let kiln: KilnProcess;
let browser: Browser;

beforeAll(async () => {
  kiln = await startKilnProcess();
  browser = await launchBrowser();
  mkdirSync('test-results', { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await kiln?.stop();
});

async function signIn(page: Page): Promise<void> {
  await signInAs(page, kiln.url, 'root', ROOT_PASSWORD);
}

describe('/admin', () => {
  it('opens from the top bar and shows the counts, light and wide, then dark at 390 px', async () => {
    const wide = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    const page = await wide.newPage();
    await signIn(page);
    await Promise.all([page.waitForNavigation(), page.click('header a:has-text("Admin")')]);
    expect(page.url()).toBe(`${kiln.url}/admin`);
    expect(await page.textContent('.admin-counts')).toContain('Users');
    expect(await seriousViolations(page)).toEqual([]);
    await wide.close();

    const narrow = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    const phone = await narrow.newPage();
    await signIn(phone);
    await phone.goto(`${kiln.url}/admin`);
    expect(await overflowsSideways(phone)).toBe(false);
    expect(await seriousViolations(phone)).toEqual([]);
    await phone.screenshot({ path: 'test-results/admin-dashboard-390-dark.png', fullPage: true });
    await narrow.close();
  });

  it('shows the background jobs page axe-clean at 1280 px light and at 390 px dark without sideways scrolling', async () => {
    for (const [width, height, colorScheme] of [[1280, 900, 'light'], [390, 844, 'dark']] as const) {
      const context = await browser.newContext({ viewport: { width, height }, colorScheme });
      const page = await context.newPage();
      await signIn(page);
      await page.goto(`${kiln.url}/admin/background_jobs`);
      expect(await page.textContent('h1')).toBe('Background jobs');
      expect(await overflowsSideways(page)).toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    }
  });

  it('shows a user and their edit form axe-clean at 1280 px light and at 390 px dark, and saves an edit', async () => {
    await apiCall(kiln, 'POST', '/users', { username: 'vera', name: 'Vera Admin-Edit', email: 'vera@example.com', password: 'vera-password-1' });
    for (const [width, height, colorScheme] of [[1280, 900, 'light'], [390, 844, 'dark']] as const) {
      const context = await browser.newContext({ viewport: { width, height }, colorScheme });
      const page = await context.newPage();
      await signIn(page);
      await page.goto(`${kiln.url}/admin/users?search=vera`);
      await Promise.all([page.waitForNavigation(), page.click('a:has-text("Vera Admin-Edit")')]);
      expect(page.url()).toBe(`${kiln.url}/admin/users/vera`);
      expect(await overflowsSideways(page)).toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      await Promise.all([page.waitForNavigation(), page.click('a.button:has-text("Edit")')]);
      expect(await overflowsSideways(page)).toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      await page.fill('#location', `Bergen ${width}`);
      await Promise.all([page.waitForNavigation(), page.click('button:has-text("Save changes")')]);
      expect(await page.textContent('.flash')).toContain('User was successfully updated.');
      expect(await page.textContent('#user-facts')).toContain('vera@example.com');
      if (width === 390) await page.screenshot({ path: 'test-results/admin-user-390-dark.png', fullPage: true });
      await context.close();
    }
  });

  it('impersonates a user: the banner is axe-clean at 390 px dark and Stop impersonating returns to the admin', async () => {
    await apiCall(kiln, 'POST', '/users', { username: 'ines', name: 'Ines Impersonated', email: 'ines@example.com', password: 'ines-password-1' });
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    const page = await context.newPage();
    await signIn(page);
    await page.goto(`${kiln.url}/admin/users/ines`);
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Impersonate")')]);
    expect(await page.textContent('.impersonation-banner')).toContain('You are now impersonating ines');
    expect(await overflowsSideways(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: 'test-results/admin-impersonation-390-dark.png', fullPage: true });
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Stop impersonating")')]);
    expect(page.url()).toBe(`${kiln.url}/admin/users/ines`);
    expect(await page.locator('.impersonation-banner').count()).toBe(0);
    await context.close();
  });
});
