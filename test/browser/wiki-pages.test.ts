// The wiki pages in Debian's Chromium against a started `kiln serve` (issue 38): from the project's
// sidebar to the empty wiki, its first page written with a Markdown preview swapped in place (htmx),
// saved, read with its link to another page followed; every wiki page axe-core clean (no serious or
// critical violations) at 1280 px and 390 px, light and dark, none scrolling sideways at 390 px; a
// group's wiki pages too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, overflowsSideways, seriousViolations, signedInAsRoot } from './helpers/browser.js';
import { apiCall, startKilnProcess, ROOT_PASSWORD, type KilnProcess } from '../clients/helpers/server.js';

let kiln: KilnProcess;
let browser: Browser;
let project: { id: number; path_with_namespace: string };

beforeAll(async () => {
  kiln = await startKilnProcess();
  project = await apiCall(kiln, 'POST', '/projects', { name: 'Handbook', path: 'handbook', visibility: 'public' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await kiln?.stop();
});

const LOOKS = [
  { width: 1280, height: 900, colorScheme: 'light' },
  { width: 1280, height: 900, colorScheme: 'dark' },
  { width: 390, height: 844, colorScheme: 'light' },
  { width: 390, height: 844, colorScheme: 'dark' },
] as const;

async function check(page: Page, path: string, narrow: boolean): Promise<[string, number, string[], boolean]> {
  const response = await page.goto(`${kiln.url}${path}`);
  return [path, response?.status() ?? 0, await seriousViolations(page), narrow ? await overflowsSideways(page) : false];
}

describe('the wiki in a browser', () => {
  it('starts the wiki from the sidebar, previews in place, saves, and follows a link between pages', async () => {
    const { context, page } = await signedInAsRoot(browser, kiln.url, ROOT_PASSWORD, { viewport: { width: 1280, height: 900 } });
    const root = `/${project.path_with_namespace}/-/wikis`;
    await page.goto(`${kiln.url}/${project.path_with_namespace}`);
    await Promise.all([page.waitForNavigation(), page.click('nav.sidebar a:has-text("Wiki")')]);
    expect(await page.textContent('main')).toContain('This wiki has no pages yet.');
    await Promise.all([page.waitForNavigation(), page.click('a:has-text("Create your first page")')]);
    expect(await page.inputValue('#wiki-title')).toBe('home');
    await page.fill('#wiki-content', '# Welcome\n\nRead the **[setup](Setup)** first.');
    const url = page.url();
    await page.click('button:has-text("Preview")');
    await page.waitForSelector('#wiki-preview:not([hidden]) strong');
    expect(page.url()).toBe(url);
    expect(await page.inputValue('#wiki-content')).toContain('Read the');
    await Promise.all([page.waitForNavigation(), page.click('button:has-text("Save changes")')]);
    expect(new URL(page.url()).pathname).toBe(`${root}/home`);
    expect(await page.textContent('.wiki-content h1')).toContain('Welcome');
    await Promise.all([page.waitForNavigation(), page.click('.wiki-content a:has-text("setup")')]);
    expect(new URL(page.url()).pathname).toBe(`${root}/Setup`);
    expect(await page.textContent('main')).toContain('There is no page');
    await context.close();
  }, 90_000);

  it('keeps every wiki page axe-clean at 1280 and 390 px, light and dark, without sideways scrolling', async () => {
    await apiCall(kiln, 'POST', `/projects/${project.id}/wikis`, { title: 'guides/A rather long page title that has to wrap on a phone', content: '## Steps\n\n1. One\n2. Two\n\n```\ncode block that is quite long and should scroll inside its own box rather than the page\n```' });
    const root = `/${project.path_with_namespace}/-/wikis`;
    const paths = [`${root}/home`, `${root}/home/edit`, `${root}/new`, `${root}/home/history`, `${root}/pages`, `${root}/guides/A-rather-long-page-title-that-has-to-wrap-on-a-phone`];
    const group = await apiCall(kiln, 'POST', '/groups', { name: 'Team', path: 'team', visibility: 'public' });
    await apiCall(kiln, 'POST', `/groups/${group.id}/wikis`, { title: 'home', content: '# Team\n\nSee [the rules](rules).' });
    paths.push('/groups/team/-/wikis/home', '/groups/team/-/wikis/home/edit', '/groups/team/-/wikis/pages');
    const found: Array<[string, number, string[], boolean]> = [];
    for (const look of LOOKS) {
      const { context, page } = await signedInAsRoot(browser, kiln.url, ROOT_PASSWORD, { viewport: { width: look.width, height: look.height }, colorScheme: look.colorScheme });
      for (const path of paths) found.push(await check(page, path, look.width < 500));
      await page.screenshot({ path: `test-results/wiki-home-${look.width}-${look.colorScheme}.png`, fullPage: true }).catch(() => undefined);
      await context.close();
    }
    expect(found.filter(([, status]) => status !== 200)).toEqual([]);
    expect(found.filter(([, , violations]) => violations.length > 0)).toEqual([]);
    expect(found.filter(([, , , sideways]) => sideways)).toEqual([]);
  }, 240_000);
});
