// A project's avatar through its settings page in Chromium (issue 36): a refused file's error sits
// beside the field, a PNG uploaded through the form becomes the project's avatar (shown on the page,
// served, and the API's avatar_url), and "Remove the avatar" takes it away. The settings page with its
// avatar field has no serious or critical axe-core violations at 1280 and 390 px, light and dark, and
// fits at 390 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, overflowsSideways, seriousViolations, signedInAsRoot } from './helpers/browser.js';
import { apiCall, startKilnProcess, ROOT_PASSWORD, type KilnProcess } from '../clients/helpers/server.js';
import { TINY_PNG } from '../helpers/multipart.js';

let kiln: KilnProcess;
let browser: Browser;
let project: { id: number };
const SETTINGS = '/root/garden/edit';

beforeAll(async () => {
  kiln = await startKilnProcess();
  browser = await launchBrowser();
  project = await apiCall(kiln, 'POST', '/projects', { name: 'Garden', path: 'garden' });
});
afterAll(async () => {
  await browser?.close();
  await kiln?.stop();
});

const loaded = (page: Page, selector: string) => page.$eval(selector, (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0);
const save = (page: Page) => Promise.all([page.waitForNavigation(), page.click('#project-settings button:has-text("Save changes")')]);

describe('project avatar on the settings page', () => {
  it('refuses a text file beside the field, uploads a PNG the API then names, and removes it', async () => {
    const { context, page } = await signedInAsRoot(browser, kiln.url, ROOT_PASSWORD, { viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    await page.goto(`${kiln.url}${SETTINGS}`);
    await page.setInputFiles('#project-avatar', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
    await save(page);
    expect(await page.textContent('#project-settings')).toContain('You are not allowed to upload "txt" files');
    expect(await seriousViolations(page)).toEqual([]);

    await page.setInputFiles('#project-avatar', { name: 'logo.png', mimeType: 'image/png', buffer: TINY_PNG });
    await save(page);
    expect(await page.textContent('.flash')).toContain("Project 'Garden' was successfully updated.");
    const src = await page.getAttribute('#project-settings img', 'src');
    expect(src).toBe(`/uploads/-/system/project/avatar/${project.id}/logo.png`);
    expect(await loaded(page, '#project-settings img')).toBe(true);
    expect((await apiCall(kiln, 'GET', `/projects/${project.id}`)).avatar_url).toBe(`${kiln.url}${src}`);
    expect(await seriousViolations(page)).toEqual([]);

    await page.check('#remove-avatar');
    await save(page);
    expect(await page.$('#project-settings img')).toBeNull();
    expect((await apiCall(kiln, 'GET', `/projects/${project.id}`)).avatar_url).toBeNull();
    await context.close();
  });

  it.each([
    { width: 1280, colorScheme: 'light' as const },
    { width: 1280, colorScheme: 'dark' as const },
    { width: 390, colorScheme: 'light' as const },
    { width: 390, colorScheme: 'dark' as const },
  ])('is axe-clean with the avatar field and an avatar at $width px ($colorScheme), without sideways scrolling', async ({ width, colorScheme }) => {
    const { context, page } = await signedInAsRoot(browser, kiln.url, ROOT_PASSWORD, { viewport: { width, height: 844 }, colorScheme });
    await page.goto(`${kiln.url}${SETTINGS}`);
    if (!(await page.$('#project-settings img'))) {
      await page.setInputFiles('#project-avatar', { name: 'logo.png', mimeType: 'image/png', buffer: TINY_PNG });
      await save(page);
    }
    expect(await page.isVisible('#project-avatar')).toBe(true);
    expect(await page.isVisible('#project-settings img')).toBe(true);
    expect({ overflows: await overflowsSideways(page), violations: await seriousViolations(page) }).toEqual({ overflows: false, violations: [] });
    await context.close();
  });
});
