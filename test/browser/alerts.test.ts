// The alert pages in Debian's Chromium: create an integration, send a test alert from its test tab,
// see it in the alert list, and acknowledge it on its details page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './helpers/browser.js';
import { apiCall, startKilnProcess, ROOT_PASSWORD, type KilnProcess } from '../clients/helpers/server.js';

let kiln: KilnProcess;
let browser: Browser;

beforeAll(async () => {
  kiln = await startKilnProcess();
  await apiCall(kiln, 'POST', '/projects', { name: 'storefront', path: 'storefront' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await kiln?.stop();
});

describe('alert management pages', () => {
  it('create an integration, send a test alert, see it in the list, acknowledge it', async () => {
    const page = await browser.newPage();
    await page.goto(`${kiln.url}/root/storefront/-/settings/operations`);
    // Redirected to sign in, then back.
    await page.fill('#login', 'root');
    await page.fill('#password', ROOT_PASSWORD);
    await Promise.all([page.waitForURL('**/-/settings/operations'), page.click('button:has-text("Sign in")')]);

    await page.fill('#new-name', 'Browser endpoint');
    await Promise.all([page.waitForLoadState('load'), page.click('button:has-text("Save integration")')]);
    await expect(page.locator('.flash').textContent()).resolves.toBe('Integration saved.');
    await expect(page.locator('#integrations').textContent()).resolves.toContain('Browser endpoint');

    await page.click('summary:has-text("View credentials")');
    await expect(page.locator('.webhook-url').textContent()).resolves.toMatch(/\/root\/storefront\/alerts\/notify\/browser-endpoint\/[0-9a-f]{16}\.json$/);

    await page.click('summary:has-text("Send test alert")');
    await page.fill('textarea[name="payload"]', '{"title": "Checkout <b>slow</b>", "severity": "medium"}');
    await Promise.all([page.waitForLoadState('load'), page.click('button:has-text("Send")')]);
    await expect(page.locator('.flash').textContent()).resolves.toMatch(/^Test alert sent successfully/);

    await page.goto(`${kiln.url}/root/storefront/-/alert_management`);
    const row = page.locator('#alerts tbody tr', { hasText: 'Checkout <b>slow</b>' });
    await expect(row.count()).resolves.toBe(1);
    await expect(row.locator('.status').textContent()).resolves.toBe('Triggered');
    await expect(page.locator('[data-tab="open"] .badge').textContent()).resolves.toBe('1');

    await Promise.all([page.waitForLoadState('load'), row.locator('a').first().click()]);
    await page.selectOption('select[name="status"]', 'acknowledged');
    await Promise.all([page.waitForLoadState('load'), page.click('button:has-text("Change status")')]);
    await expect(page.locator('.flash').textContent()).resolves.toBe('Status changed to Acknowledged.');
    await expect(page.locator('#notes').textContent()).resolves.toContain('changed the status to Acknowledged');

    await page.goto(`${kiln.url}/root/storefront/-/alert_management?status=acknowledged`);
    await expect(page.locator('#alerts tbody tr', { hasText: 'Checkout <b>slow</b>' }).locator('.status').textContent()).resolves.toBe('Acknowledged');
  });
});
