// A user's avatar in Chromium (issue 36): uploaded on the profile page, it shows in the top bar and on
// the profile; a refused file's error sits beside the field. The pages with an avatar have no serious
// or critical axe-core violations at 1280 px light and 390 px dark, and fit at 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, overflowsSideways, seriousViolations, signInAs } from './helpers/browser.js';
import { apiCall, startKilnProcess, type KilnProcess } from '../clients/helpers/server.js';
import { TINY_PNG } from '../helpers/multipart.js';

let kiln: KilnProcess;
let browser: Browser;

beforeAll(async () => {
  kiln = await startKilnProcess();
  browser = await launchBrowser();
  await apiCall(kiln, 'POST', '/users', { username: 'fay', name: 'Fay', email: 'fay@example.com', password: 'fay-password-1', skip_confirmation: true });
});
afterAll(async () => {
  await browser?.close();
  await kiln?.stop();
});

/** The image loaded (a broken one has no natural width). */
const loaded = (page: Page, selector: string) => page.$eval(selector, (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0);

describe('user avatar', () => {
  it('uploads an avatar on the profile page; the top bar and the profile show it; axe-clean at 1280 px light and 390 px dark', async () => {
    const wide = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    const page = await wide.newPage();
    await signInAs(page, kiln.url, 'fay', 'fay-password-1');
    await page.goto(`${kiln.url}/profile`);
    await page.setInputFiles('#user-avatar', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Update profile settings")')]);
    expect(await page.textContent('#avatar-error')).toContain('You are not allowed to upload "txt" files');
    expect(await seriousViolations(page)).toEqual([]);

    await page.setInputFiles('#user-avatar', { name: 'fay.png', mimeType: 'image/png', buffer: TINY_PNG });
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Update profile settings")')]);
    expect(await page.textContent('.flash')).toContain('Profile was successfully updated.');
    const src = await page.getAttribute('.user-menu .user-avatar', 'src');
    expect(src).toMatch(/^\/uploads\/-\/system\/user\/avatar\/\d+\/fay\.png$/);
    expect(await loaded(page, '.user-menu .user-avatar')).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`${kiln.url}/fay`);
    expect(await page.getAttribute('.profile-avatar', 'src')).toBe(src);
    expect(await loaded(page, '.profile-avatar')).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await wide.close();

    const narrow = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    const phone = await narrow.newPage();
    await signInAs(phone, kiln.url, 'fay', 'fay-password-1');
    for (const path of ['/profile', '/fay']) {
      await phone.goto(`${kiln.url}${path}`);
      expect(await phone.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(15, 17, 23)');
      expect({ path, overflows: await overflowsSideways(phone), violations: await seriousViolations(phone) }).toEqual({ path, overflows: false, violations: [] });
    }
    await narrow.close();
  });
});
